export { default as eventsModule } from './routes.ts'
