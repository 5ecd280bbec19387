export { default as incomeModule } from './routes.ts'
export { incomeSummary } from './service.ts'
