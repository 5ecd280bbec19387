export { default as oauthModule } from './routes.ts'
