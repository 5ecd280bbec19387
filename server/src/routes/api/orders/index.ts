import { and, count, desc, eq, gte, ilike, isNull, lt, or, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { orderCreateSchema, orderListQuerySchema, orderNoSchema } from '#contract/shares.ts'
import { ledgerEntries, orders, shares, users } from '../../../db/schema.ts'
import { containing } from '../../../db/search.ts'
import { expirePendingOrders, reconcileWithGateway } from '../../../domain/orders/settlement.ts'
import { newOrderNo, ORDER_TTL_MS } from '../../../domain/orders/rules.ts'
import { presentOrder } from '../../../domain/shares/present.ts'
import { AppError, conflict, notFound, tooMany } from '../../../errors.ts'
import { spend } from '../../../plugins/app/rate-limits.ts'
import { ProviderError } from '../../../providers/payments/types.ts'

const buyers = alias(users, 'buyers')
const sellers = alias(users, 'sellers')
/** Asia/Shanghai calendar days for the date filters. */
const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`)
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 24 * 3600 * 1000)

/** Orders (SPEC §7 /api/orders/*): create and pay, status, the buyer's, seller's and admin lists, refund. */
export default async function orderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  async function listOrders(q: z.infer<typeof orderListQuerySchema>, scope: { buyerId?: number; sellerId?: number }) {
    await expirePendingOrders(app.db)
    const where = and(
      scope.buyerId ? eq(orders.buyerId, scope.buyerId) : undefined,
      scope.sellerId ? eq(orders.sellerId, scope.sellerId) : undefined,
      q.payment_status ? eq(orders.paymentStatus, q.payment_status) : undefined,
      q.unicode ? eq(shares.unicode, q.unicode) : undefined,
      q.orderNo ? or(eq(orders.orderNo, q.orderNo), eq(orders.providerTradeNo, q.orderNo)) : undefined,
      q.keyword ? or(ilike(orders.productName, containing(q.keyword)), ilike(buyers.userName, containing(q.keyword)), ilike(sellers.userName, containing(q.keyword))) : undefined,
      q.from ? gte(orders.createdAt, dayStart(q.from)) : undefined,
      q.to ? lt(orders.createdAt, nextDay(q.to)) : undefined,
    )
    const base = () =>
      app.db
        .select({ order: orders, unicode: shares.unicode, buyerName: buyers.userName, sellerName: sellers.userName })
        .from(orders)
        .leftJoin(shares, eq(shares.id, orders.shareId))
        .leftJoin(buyers, eq(buyers.id, orders.buyerId))
        .leftJoin(sellers, eq(sellers.id, orders.sellerId))
    const [rows, [total]] = await Promise.all([
      base().where(where).orderBy(desc(orders.id)).limit(q.pageSize).offset((q.pageNum - 1) * q.pageSize),
      app.db
        .select({ n: count() })
        .from(orders)
        .leftJoin(shares, eq(shares.id, orders.shareId))
        .leftJoin(buyers, eq(buyers.id, orders.buyerId))
        .leftJoin(sellers, eq(sellers.id, orders.sellerId))
        .where(where as SQL | undefined),
    ])
    return {
      list: rows.map((r) => presentOrder(r.order, { unicode: r.unicode, buyerName: r.buyerName, sellerName: r.sellerName })),
      total: total?.n ?? 0,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    }
  }

  // POST /api/orders/create {unicode, paymentMethod} → {orderNo, payUrl?, qrCode?}; visitors need no account.
  app.post('/create', { preHandler: app.identify, schema: { body: orderCreateSchema, tags: ['orders'] } }, async (request, reply) => {
    const { unicode, paymentMethod } = request.body
    const wait = await spend(app.limits.orderIp, request.ip)
    if (wait) throw tooMany('errors.rateLimited', wait)
    const [row] = await app.db
      .select({ share: shares, sellerBanned: users.isBanned })
      .from(shares)
      .innerJoin(users, eq(users.id, shares.userId))
      .where(and(eq(shares.unicode, unicode), isNull(shares.deletedAt)))
      .limit(1)
    if (!row) throw notFound('shares.notFound')
    if (row.share.status !== 'approved' || row.sellerBanned === 1) throw conflict('shares.notForSale', { status: row.share.status })
    if (request.user?.id === row.share.userId) throw conflict('orders.ownShare')

    const provider = app.payments.forMethod(paymentMethod)
    // No real gateway for this method and the sandbox is off: the method is not offered.
    if (!provider) throw conflict('orders.methodUnavailable', { paymentMethod })
    const orderNo = newOrderNo()
    const expiresAt = new Date(Date.now() + ORDER_TTL_MS)
    await app.db.insert(orders).values({
      orderNo,
      shareId: row.share.id,
      sellerId: row.share.userId,
      buyerId: request.user?.id ?? null,
      productName: row.share.title,
      amountFen: row.share.priceFen,
      paymentMethod,
      provider: provider.name,
      buyerIp: request.ip,
      expiresAt,
    })
    try {
      const pay = await provider.createPayment({
        orderNo,
        amount: row.share.priceFen,
        subject: row.share.title.replace(/[/=&]/g, ' ').slice(0, 120),
        method: paymentMethod,
        notifyUrl: `${app.config.apiPublicUrl}/api/payments/${provider.name}/notify`,
        returnUrl: `${app.config.webUrl}/share/${unicode}?order=${orderNo}`,
        expiresAt,
        clientIp: request.ip,
      })
      await app.db.update(orders).set({ checkoutUrl: pay.qrCode ?? pay.payUrl ?? null }).where(eq(orders.orderNo, orderNo))
      return reply.ok({ orderNo, ...pay }, 'orders.created', 201)
    } catch (e) {
      request.log.error({ err: e, orderNo }, 'gateway refused the payment')
      await app.db.update(orders).set({ paymentStatus: 'Failed' }).where(eq(orders.orderNo, orderNo))
      throw new AppError(502, 'orders.gatewayError')
    }
  })

  const orderNoQuery = z.object({ orderNo: orderNoSchema })

  // GET /api/orders/payment-status?orderNo= — what the waiting page polls; asks the gateway when late.
  app.get('/payment-status', { schema: { querystring: orderNoQuery, tags: ['orders'] } }, async (request, reply) => {
    const { orderNo } = request.query
    const [order] = await app.db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1)
    if (!order) throw notFound('orders.notFound')
    if (order.paymentStatus === 'Pending' && order.expiresAt < new Date()) await expirePendingOrders(app.db)
    if (order.paymentStatus === 'Pending' || order.paymentStatus === 'Failed') {
      const provider = app.payments.byName(order.provider)
      if (provider) {
        await reconcileWithGateway(app.db, provider, orderNo, { feeBasisPoints: app.config.defaultFeeBp }).catch((err) =>
          request.log.warn({ err, orderNo }, 'payment query failed'),
        )
      }
    }
    const [fresh] = await app.db
      .select({ order: orders, unicode: shares.unicode })
      .from(orders)
      .leftJoin(shares, eq(shares.id, orders.shareId))
      .where(eq(orders.id, order.id))
    const o = fresh!.order
    return reply.ok({
      orderNo: o.orderNo,
      unicode: fresh!.unicode,
      payment_status: o.paymentStatus,
      paymentMethod: o.paymentMethod,
      amount: o.amountFen / 100,
      third_party_trade_no: o.paymentStatus === 'Completed' ? (o.providerTradeNo ?? '') : '',
      expires_at: o.expiresAt.toISOString(),
      // While it can still be paid: where to pay (the WeChat page renders it as a QR code).
      checkout_url: o.paymentStatus === 'Pending' ? o.checkoutUrl : null,
    })
  })

  app.get('/list', { preHandler: app.authenticate, schema: { querystring: orderListQuerySchema, tags: ['orders'] } }, async (request, reply) =>
    reply.ok(await listOrders(request.query, { buyerId: request.user!.id })),
  )
  app.get('/seller/list', { preHandler: app.authenticate, schema: { querystring: orderListQuerySchema, tags: ['orders'] } }, async (request, reply) =>
    reply.ok(await listOrders(request.query, { sellerId: request.user!.id })),
  )
  app.get('/admin/list', { preHandler: app.requireAdmin, schema: { querystring: orderListQuerySchema, tags: ['orders', 'admin'] } }, async (request, reply) =>
    reply.ok(await listOrders(request.query, {})),
  )

  // POST /api/orders/admin/refund {orderNo} — through the gateway, then Refund + a ledger debit, once.
  app.post('/admin/refund', { preHandler: app.requireAdmin, schema: { body: orderNoQuery, tags: ['orders', 'admin'] } }, async (request: FastifyRequest<{ Body: { orderNo: string } }>, reply) => {
    const { orderNo } = request.body
    const [order] = await app.db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1)
    if (!order) throw notFound('orders.notFound')
    if (order.paymentStatus === 'Refund') return reply.ok({ orderNo, payment_status: 'Refund' }, 'orders.refunded')
    if (order.paymentStatus !== 'Completed') throw conflict('orders.notRefundable', { payment_status: order.paymentStatus })
    const provider = app.payments.byName(order.provider)
    if (!provider) throw new AppError(502, 'orders.gatewayError')
    try {
      // The same refund number on every retry: the gateway refunds once.
      await provider.refund({ orderNo, refundNo: `R${orderNo}`, amount: order.amountFen, totalAmount: order.amountFen, reason: 'refund' })
    } catch (e) {
      request.log.error({ err: e, orderNo }, 'refund failed at the gateway')
      throw new AppError(502, e instanceof ProviderError ? 'orders.refundFailed' : 'orders.gatewayError')
    }
    await app.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update')
      if (locked?.paymentStatus !== 'Completed') return
      await tx.update(orders).set({ paymentStatus: 'Refund', refundedAt: new Date() }).where(eq(orders.id, order.id))
      if (locked.sellerId && locked.sellerIncomeFen) {
        await tx
          .insert(ledgerEntries)
          .values({ sellerId: locked.sellerId, kind: 'refund', amountFen: -locked.sellerIncomeFen, orderId: locked.id })
          .onConflictDoNothing()
      }
    })
    return reply.ok({ orderNo, payment_status: 'Refund' }, 'orders.refunded')
  })
}
