export { default as oversightModule } from './routes.ts'
