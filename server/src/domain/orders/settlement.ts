import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { inboundEvents, ledgerEntries, orders, shares } from '../../db/schema.ts'
import type { PaymentNotification, PaymentProvider, PaymentProviderName } from '../../providers/payments/types.ts'
import { NotificationRejected } from '../../providers/payments/types.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { platformFee, QUERY_INTERVAL_MS } from './rules.ts'

export type SettleOutcome = 'paid' | 'closed' | 'duplicate' | 'ignored'

/**
 * Applies a verified gateway notification in ONE transaction (DESIGN §6 money): the event is recorded
 * under a unique (provider, event key) — a replay hits the key and changes nothing — the order row is
 * locked, the amount must equal the order's, and a payment posts exactly one `sale` ledger entry
 * (unique per order). A late payment on an expired (Failed) order is still honoured: the money was taken.
 */
export async function applyNotification(
  db: Database,
  provider: PaymentProviderName,
  n: PaymentNotification,
  opts: { feeBasisPoints: number },
): Promise<SettleOutcome> {
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
        const fee = platformFee(order.amountFen, opts.feeBasisPoints)
        const income = order.amountFen - fee
        await tx
          .update(orders)
          .set({ paymentStatus: 'Completed', providerTradeNo: n.tradeNo, paidAt: new Date(), feeFen: fee, sellerIncomeFen: income })
          .where(eq(orders.id, order.id))
        if (order.shareId) await tx.update(shares).set({ purchaseCount: sql`${shares.purchaseCount} + 1` }).where(eq(shares.id, order.shareId))
        if (order.sellerId && income > 0) {
          await tx.insert(ledgerEntries).values({ sellerId: order.sellerId, kind: 'sale', amountFen: income, orderId: order.id }).onConflictDoNothing()
        }
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

/** Pending orders past their 30 minutes become Failed (a later notify still completes them). */
export async function expirePendingOrders(db: Database, now: Date = new Date()): Promise<number> {
  const rows = await db
    .update(orders)
    .set({ paymentStatus: 'Failed' })
    .where(and(eq(orders.paymentStatus, 'Pending'), lt(orders.expiresAt, now)))
    .returning({ id: orders.id })
  return rows.length
}

/**
 * When the buyer is waiting and no notify has come, ask the gateway (DESIGN §3: "the poll asks the
 * provider"), at most every few seconds per order, and settle what it says through the same path.
 */
export async function reconcileWithGateway(
  db: Database,
  provider: PaymentProvider,
  orderNo: string,
  opts: { feeBasisPoints: number; now?: Date },
): Promise<void> {
  const now = opts.now ?? new Date()
  const claimed = await db
    .update(orders)
    .set({ lastQueriedAt: now })
    .where(
      and(
        eq(orders.orderNo, orderNo),
        inArray(orders.paymentStatus, ['Pending', 'Failed']),
        sql`${orders.createdAt} < ${new Date(now.getTime() - 2000)}`,
        sql`${orders.paidAt} is null`,
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
    await applyNotification(db, provider.name, { eventKey: `query:${q.tradeNo}`, orderNo, tradeNo: q.tradeNo, amount: q.amount, state: 'PAID' }, opts)
  }
}
