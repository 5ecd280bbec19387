export { default as moderationModule } from './routes.ts'
