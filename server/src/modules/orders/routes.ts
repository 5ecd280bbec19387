import { ordersApi } from '#contract/orders.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import { createOrder, orderPage, paymentStatus, refundOrder, revealList } from './service.ts'

/** Orders (SPEC §7 /api/orders/*): create and pay, status, the buyer's, seller's and admin lists, reveals, refund. */
export default defineModule({
  name: 'orders',
  routes(r) {
    const { app } = r
    r.route(ordersApi.create, async (request) =>
      created(
        await createOrder(app, { ...request.body, buyerId: request.user?.id ?? null, ip: request.ip, log: request.log }),
        'orders.created',
      ),
    )
    r.route(ordersApi.paymentStatus, async (request) => ok(await paymentStatus(app, request.query.orderNo, request.log)))
    r.route(ordersApi.list, async (request) => ok(await orderPage(app.db, request.query, { buyerId: request.user.id }, app.clock())))
    // The seller sees its buyers' order numbers masked (decision 102).
    r.route(ordersApi.sellerList, async (request) => ok(await orderPage(app.db, request.query, { sellerId: request.user.id, masked: true }, app.clock())))
  },
  admin(r) {
    const { app } = r
    r.route(ordersApi.adminList, async (request) => ok(await orderPage(app.db, request.query, {}, app.clock())))
    r.route(ordersApi.adminReveals, async (request) => ok(await revealList(app.db, { orderId: request.query.id })))
    r.route(ordersApi.adminRefund, async (request) => {
      const refunded = await refundOrder(app, request.body.orderNo, request.log, { actorId: request.user.id })
      return ok(refunded, refunded.refund_state === 'done' ? 'orders.refunded' : 'orders.refundPending')
    })
  },
})
