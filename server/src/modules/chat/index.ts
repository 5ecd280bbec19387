export { default as chatModule } from './routes.ts'
export { callersOrder } from './service.ts'
