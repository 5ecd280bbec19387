export { default as authModule } from './routes.ts'
export { checkPassword, openSession } from './service.ts'
