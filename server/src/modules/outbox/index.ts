export { default as outboxModule } from './routes.ts'
