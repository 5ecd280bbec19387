export { default as menuModule } from './routes.ts'
