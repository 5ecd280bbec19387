export { default as withdrawalsModule } from './routes.ts'
export { serviceFeeFen, type WithdrawalSettings } from './rules.ts'
export { countPendingWithdrawals } from './repository.ts'
