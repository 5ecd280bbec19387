export { default as authModule } from './routes.ts'
export { mayLogIn } from './rules.ts'
export { checkPassword, openSession } from './service.ts'
