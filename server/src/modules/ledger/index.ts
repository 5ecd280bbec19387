export { lockBalance, overdraftRefused, postRefund, postSale, postWithdrawal, postWithdrawalReversal, unsettledSum, withdrawableFen } from './service.ts'
