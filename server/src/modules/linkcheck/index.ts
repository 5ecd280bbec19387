export { LinkChecker, linkCheckSettings } from './checker.ts'
export type { Resolver } from './guard.ts'
export { default as linkcheckModule } from './routes.ts'
export { deadLinkNotice, sweepDeadLinkRefunds, sweepLinks } from './service.ts'
