import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.ts'
import { inboundEvents, orders, shares, users } from '../../db/schema.ts'
import type { PaymentProviders } from '../../providers/payments/index.ts'
import type { PaymentNotification, PaymentProvider, PaymentProviderName } from '../../providers/payments/types.ts'
import { NotificationRejected } from '../../providers/payments/types.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { postRefund, postSale } from '../ledger/service.ts'
import { openChannel, sellerFeeRateBp } from '../channels/effects.ts'
import { honoursPayment, platformFee, QUERY_INTERVAL_MS, refundNoFor } from '../orders/rules.ts'
import { openSubscription } from '../subscriptions/effects.ts'

/** `refunding`: paid for a share no longer for sale — recorded, and refunded (decision 042). */
type SettleOutcome = 'paid' | 'refunding' | 'closed' | 'duplicate' | 'ignored'

/**
 * What settling a payment needs to know: the fee rate when the seller has no open channel, how long
 * income stays unsettled, and the time now (the app's clock).
 */
export type SettlePolicy = { defaultFeeBp: number; settlementDelayMs: number; clock: () => Date }
type SettleOptions = SettlePolicy & { log?: FastifyBaseLogger }

/** The settlement policy of a running app. */
export const settlePolicy = (app: { config: { defaultFeeBp: number; settlementDelayMs: number }; clock: () => Date }): SettlePolicy => ({
  defaultFeeBp: app.config.defaultFeeBp,
  settlementDelayMs: app.config.settlementDelayMs,
  clock: app.clock,
})

/**
 * Applies a verified gateway notification in ONE transaction (DESIGN §6 money): the event is recorded
 * under a unique (provider, event key) — a replay hits the key and changes nothing — the order row is
 * locked, the amount must equal the order's, and a payment posts exactly one `sale` ledger entry
 * (unique per order). A late payment on an expired (Failed) order is still honoured: the money was taken.
 * A payment for a share no longer for sale is recorded as paid and turned into a refund in the same
 * transaction (status Refund, sale and refund posted, the content never shown); the gateway refund
 * follows the commit (finishOwedRefund).
 */
async function applyNotification(db: Database, provider: PaymentProviderName, n: PaymentNotification, opts: SettlePolicy): Promise<SettleOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const recorded = await tx
        .insert(inboundEvents)
        .values({ provider, eventKey: n.eventKey, orderNo: n.orderNo, state: n.state })
        .onConflictDoNothing()
        .returning({ id: inboundEvents.id })
      if (recorded.length === 0) return 'duplicate'

      const [order] = await tx.select().from(orders).where(eq(orders.orderNo, n.orderNo)).for('update')
      if (!order) throw new NotificationRejected(`unknown order ${n.orderNo}`)
      if (order.provider !== provider) throw new NotificationRejected(`order ${n.orderNo} belongs to ${order.provider}`)

      if (n.state === 'PAID') {
        if (n.amount !== order.amountFen) throw new NotificationRejected(`amount ${n.amount} ≠ order ${order.amountFen}`)
        if (order.paymentStatus === 'Completed' || order.paymentStatus === 'Refund') return 'duplicate'
        const now = opts.clock()
        if (order.productType === 'channel') {
          await tx.update(orders).set({ paymentStatus: 'Completed', providerTradeNo: n.tradeNo, paidAt: now, feeFen: 0, sellerIncomeFen: 0 }).where(eq(orders.id, order.id))
          await openChannel(tx, order, now)
          return 'paid'
        }
        if (order.productType === 'package') {
          await tx.update(orders).set({ paymentStatus: 'Completed', providerTradeNo: n.tradeNo, paidAt: now, feeFen: 0, sellerIncomeFen: 0 }).where(eq(orders.id, order.id))
          await openSubscription(tx, order, now)
          return 'paid'
        }
        const [share] = order.shareId
          ? await tx
              .select({ status: shares.status, sellerBanned: users.isBanned })
              .from(shares)
              .innerJoin(users, eq(users.id, shares.userId))
              .where(eq(shares.id, order.shareId))
          : []
        const honoured = honoursPayment(share)
        // The fee rate of the sale is fixed now: the seller's best open channel, else the default.
        const feeRateBp = order.sellerId ? await sellerFeeRateBp(tx, order.sellerId, now, opts.defaultFeeBp) : opts.defaultFeeBp
        const fee = platformFee(order.amountFen, feeRateBp)
        const settleAt = new Date(now.getTime() + opts.settlementDelayMs)
        const paid = { ...order, feeFen: fee, feeRateBp, sellerIncomeFen: order.amountFen - fee, settleAt }
        await tx
          .update(orders)
          .set({ paymentStatus: honoured ? 'Completed' : 'Refund', providerTradeNo: n.tradeNo, paidAt: now, feeFen: fee, feeRateBp, settleAt, sellerIncomeFen: paid.sellerIncomeFen })
          .where(eq(orders.id, order.id))
        await postSale(tx, paid, now)
        if (!honoured) {
          await postRefund(tx, paid, now)
          return 'refunding'
        }
        if (order.shareId) await tx.update(shares).set({ purchaseCount: sql`${shares.purchaseCount} + 1` }).where(eq(shares.id, order.shareId))
        return 'paid'
      }
      if (n.state === 'CLOSED') {
        if (order.paymentStatus !== 'Pending') return 'ignored'
        await tx.update(orders).set({ paymentStatus: 'Failed' }).where(eq(orders.id, order.id))
        return 'closed'
      }
      return 'ignored'
    })
  } catch (e) {
    // The same gateway trade number on a second order: forged or misrouted.
    if (uniqueViolation(e) === 'orders_provider_trade_key') throw new NotificationRejected(`trade ${n.tradeNo} already used`)
    throw e
  }
}

/**
 * A notification applied, and the refund it may owe sent to the gateway. A replayed or racing notify
 * retries an owed refund that has not gone through yet (the gateway refunds a refund number once).
 */
export async function settleNotification(db: Database, provider: PaymentProvider, n: PaymentNotification, opts: SettleOptions): Promise<SettleOutcome> {
  const outcome = await applyNotification(db, provider.name, n, opts)
  if (outcome === 'refunding' || outcome === 'duplicate') await finishOwedRefund(db, provider, n.orderNo, opts.log)
  return outcome
}

/** Refunds a paid order in full at its gateway, under the order's one refund number. Throws ProviderError. */
export async function refundAtGateway(provider: PaymentProvider, order: { orderNo: string; amountFen: number }, reason: string): Promise<void> {
  await provider.refund({ orderNo: order.orderNo, refundNo: refundNoFor(order.orderNo), amount: order.amountFen, totalAmount: order.amountFen, reason })
}

/**
 * An order marked Refund whose gateway refund has not been confirmed (`refunded_at` unset) gets it
 * now; `refunded_at` records the gateway's confirmation. A failure is logged and left for the next
 * replay, poll, admin refund or the minute sweep. True when the order is (now) refunded at the gateway.
 */
export async function finishOwedRefund(db: Database, provider: PaymentProvider, orderNo: string, log?: FastifyBaseLogger): Promise<boolean> {
  const [owed] = await db
    .select({ id: orders.id, orderNo: orders.orderNo, amountFen: orders.amountFen })
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.paymentStatus, 'Refund'), isNull(orders.refundedAt)))
  if (!owed) return false
  try {
    await refundAtGateway(provider, owed, 'share no longer for sale')
  } catch (err) {
    log?.error({ err, orderNo }, 'refund of a payment for a share no longer for sale failed at the gateway; retried later')
    return false
  }
  await db.update(orders).set({ refundedAt: new Date() }).where(and(eq(orders.id, owed.id), isNull(orders.refundedAt)))
  log?.info({ orderNo }, 'payment for a share no longer for sale refunded')
  return true
}

/** Every refund still owed at a gateway that is configured (the minute sweep). */
export async function finishOwedRefunds(db: Database, payments: PaymentProviders, log?: FastifyBaseLogger): Promise<number> {
  const owed = await db
    .select({ orderNo: orders.orderNo, provider: orders.provider })
    .from(orders)
    .where(and(eq(orders.paymentStatus, 'Refund'), isNull(orders.refundedAt)))
    .limit(100)
  let done = 0
  for (const o of owed) {
    const provider = payments.byName(o.provider)
    if (provider && (await finishOwedRefund(db, provider, o.orderNo, log))) done++
  }
  return done
}

/**
 * When the buyer is waiting and no notify has come, ask the gateway (DESIGN §3: "the poll asks the
 * provider"), at most every few seconds per order, and settle what it says through the same path.
 */
export async function reconcileWithGateway(db: Database, provider: PaymentProvider, orderNo: string, opts: SettleOptions): Promise<void> {
  const now = opts.clock()
  const claimed = await db
    .update(orders)
    .set({ lastQueriedAt: now })
    .where(
      and(
        eq(orders.orderNo, orderNo),
        inArray(orders.paymentStatus, ['Pending', 'Failed']),
        lt(orders.createdAt, new Date(now.getTime() - 2000)),
        isNull(orders.paidAt),
        sql`(${orders.lastQueriedAt} is null or ${orders.lastQueriedAt} < ${new Date(now.getTime() - QUERY_INTERVAL_MS)})`,
      ),
    )
    .returning({ amountFen: orders.amountFen, expiresAt: orders.expiresAt, status: orders.paymentStatus })
  const row = claimed[0]
  if (!row) return
  // Only recently created orders are worth a gateway call; an old Failed order waits for its notify.
  if (row.status === 'Failed' && now.getTime() - row.expiresAt.getTime() > 24 * 3600 * 1000) return
  const q = await provider.queryPayment(orderNo)
  if (q.state === 'PAID' && q.tradeNo && q.amount !== undefined) {
    await settleNotification(db, provider, { eventKey: `query:${q.tradeNo}`, orderNo, tradeNo: q.tradeNo, amount: q.amount, state: 'PAID' }, opts)
  }
}
