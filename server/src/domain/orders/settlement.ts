// The order and payment code moved to server/src/modules/{orders,payments} (issue 6). The public share
// lookup still imports from here until it moves into its own module; then this file goes.
export { expirePendingOrders } from '../../modules/orders/service.ts'
export { reconcileWithGateway } from '../../modules/payments/settlement.ts'
