import { and, eq, isNull } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { shareLookupQuerySchema, type PublicShare } from '#contract/shares.ts'
import { orders, shares, users } from '../../../db/schema.ts'
import { expirePendingOrders, reconcileWithGateway } from '../../../domain/orders/settlement.ts'
import { presentShare, withContent } from '../../../domain/shares/present.ts'
import { visitorKey } from '../../../domain/shares/rules.ts'
import { notFound } from '../../../errors.ts'

/**
 * GET /api/share?unicode= — the public share (never the content, unless the caller is its owner, an
 * admin, or a logged-in buyer with a completed order). GET /api/share?third_party_trade_no=<order no>
 * — the share of an order: `third_party_trade_no` is '' until paid, then the gateway's trade number,
 * and the content comes with it (SPEC §4 share lookup after payment).
 */
export default async function publicShareRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  const shareWithSeller = async (where: ReturnType<typeof eq>) => {
    const [row] = await app.db
      .select({ share: shares, seller: { userName: users.userName, isBanned: users.isBanned } })
      .from(shares)
      .innerJoin(users, eq(users.id, shares.userId))
      .where(where)
      .limit(1)
    return row
  }

  app.get('/', { preHandler: app.identify, schema: { querystring: shareLookupQuerySchema, tags: ['shares'] } }, async (request, reply) => {
    const q = request.query
    const viewer = request.user

    if (q.unicode) {
      // Anonymous visitors read through the short-lived cache; signed-in callers read the database.
      const row = viewer ? await shareWithSeller(and(eq(shares.unicode, q.unicode), isNull(shares.deletedAt))!) : await app.shareCache.get(q.unicode)
      if (!row) throw notFound('shares.notFound')
      let out: PublicShare = presentShare(row.share, row.seller)
      const isOwner = viewer?.id === row.share.userId
      if (!isOwner) {
        const key = visitorKey({ visitorId: request.headers['x-visitor-id'] as string | undefined, ip: request.ip, userAgent: request.headers['user-agent'] })
        const unwritten = app.visits.record(row.share.id, key)
        out = { ...out, visit_count: out.visit_count + unwritten }
      }
      let mayRead = isOwner || viewer?.role === 'admin'
      if (!mayRead && viewer) {
        const [bought] = await app.db
          .select({ id: orders.id, firstRevealedAt: orders.firstRevealedAt })
          .from(orders)
          .where(and(eq(orders.shareId, row.share.id), eq(orders.buyerId, viewer.id), eq(orders.paymentStatus, 'Completed')))
          .limit(1)
        mayRead = Boolean(bought)
        if (bought && !bought.firstRevealedAt) {
          await app.db.update(orders).set({ firstRevealedAt: new Date() }).where(and(eq(orders.id, bought.id), isNull(orders.firstRevealedAt)))
        }
      }
      return reply.ok(mayRead ? withContent(out, row.share, app.cipher) : out)
    }

    const orderNo = q.third_party_trade_no!
    const [order] = await app.db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1)
    if (!order || !order.shareId) throw notFound('orders.notFound')
    if (order.paymentStatus === 'Pending' && order.expiresAt < new Date()) await expirePendingOrders(app.db)
    if (order.paymentStatus !== 'Completed' && order.paymentStatus !== 'Refund') {
      const provider = app.payments.byName(order.provider)
      if (provider) {
        await reconcileWithGateway(app.db, provider, orderNo, { feeBasisPoints: app.config.defaultFeeBp }).catch((err) =>
          request.log.warn({ err, orderNo }, 'payment query failed'),
        )
      }
    }
    const [fresh] = await app.db.select().from(orders).where(eq(orders.id, order.id)).limit(1)
    const row = await shareWithSeller(eq(shares.id, order.shareId))
    if (!fresh || !row) throw notFound('orders.notFound')
    const base: PublicShare = {
      ...presentShare(row.share, row.seller),
      payment_status: fresh.paymentStatus,
      third_party_trade_no: fresh.paymentStatus === 'Completed' ? (fresh.providerTradeNo ?? '') : '',
    }
    // A refunded order no longer reveals the content.
    if (fresh.paymentStatus !== 'Completed') return reply.ok(base)
    if (!fresh.firstRevealedAt) {
      await app.db.update(orders).set({ firstRevealedAt: new Date() }).where(and(eq(orders.id, fresh.id), isNull(orders.firstRevealedAt)))
    }
    return reply.ok(withContent(base, row.share, app.cipher))
  })
}
