export { openSubscription, packageOrders } from './effects.ts'
export { default as subscriptionsModule } from './routes.ts'
export { unlockRefusal } from './rules.ts'
export { unlockAllowance } from './service.ts'
