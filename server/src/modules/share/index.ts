export { PublicShareCache } from './public-cache.ts'
export { default as shareModule } from './routes.ts'
export { VisitRecorder } from './visits.ts'
