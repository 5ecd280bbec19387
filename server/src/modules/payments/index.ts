export { default as paymentsModule } from './routes.ts'
export { paymentsStartupReport } from './startup.ts'
