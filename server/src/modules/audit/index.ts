export { default as auditModule } from './routes.ts'
export { recordAudit } from './service.ts'
