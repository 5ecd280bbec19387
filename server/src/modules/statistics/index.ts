export { pruneStatisticsLog } from './repository.ts'
export { default as statisticsModule } from './routes.ts'
export { keepDefaultRanges } from './service.ts'
