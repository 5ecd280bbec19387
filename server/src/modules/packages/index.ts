export { default as packagesModule } from './routes.ts'
