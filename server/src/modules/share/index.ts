export { PublicShareCache } from './public-cache.ts'
export { shareByCode } from './repository.ts'
export { default as shareModule } from './routes.ts'
export { VisitRecorder } from './visits.ts'
