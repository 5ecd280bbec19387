import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, like, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import type { orderListQuerySchema, RefundState, RevealKind } from '#contract/orders.ts'
import type { Database } from '../../db/client.ts'
import { inboundEvents, orderReveals, orders, shares, users } from '../../db/schema/index.ts'
import { accountNamed, containing } from '../../db/search.ts'
import { readPage } from '../../db/paging.ts'
import { QUERY_INTERVAL_MS } from './rules.ts'

type OrderRow = typeof orders.$inferSelect
export type OrderListQuery = z.output<typeof orderListQuerySchema>
/**
 * Whose orders a list shows: a buyer's, a seller's, or (empty) all; `masked`: the seller's own view,
 * which sees its buyers' order numbers masked (decision 102).
 */
export type OrderScope = { buyerId?: number; sellerId?: number; masked?: boolean }

const buyers = alias(users, 'buyers')
const sellers = alias(users, 'sellers')
/** Asia/Shanghai calendar days for the date filters. */
const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`)
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 24 * 3600 * 1000)

/** The orders whose refund is in that state (orders/rules.ts refundState). */
function refundStateIs(state: RefundState) {
  const refund = eq(orders.paymentStatus, 'Refund')
  if (state === 'done') return and(refund, isNotNull(orders.refundedAt))
  return and(refund, isNull(orders.refundedAt), state === 'failed' ? isNotNull(orders.refundFailure) : isNull(orders.refundFailure))
}

/**
 * The order-number filter of a masked view (decision 102): a whole or masked number of ours finds the
 * orders with its time and last four digits, so a seller cannot confirm a guess of the hidden ones; any
 * other value is a gateway's trade number.
 */
function visiblePartsOf(asked: string) {
  const ours = /^(PS\d{14})(?:\d{8}|\*{8})(\d{4})$/.exec(asked)
  return ours ? like(orders.orderNo, `${ours[1]}________${ours[2]}`) : eq(orders.providerTradeNo, asked)
}

/** A live (not deleted) share by its code, with whether its seller is banned. */
export async function findShareByCode(db: Database, unicode: string) {
  const [row] = await db
    .select({ share: shares, sellerBanned: users.isBanned })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(and(eq(shares.unicode, unicode), isNull(shares.deletedAt)))
    .limit(1)
  return row
}

export async function insertOrder(db: Database, values: typeof orders.$inferInsert) {
  await db.insert(orders).values(values)
}

/**
 * The zero-amount Completed order of a subscriber's free unlock (no fee, no income, no ledger entry),
 * which lists it under My orders: its id.
 */
export async function insertUnlockOrder(
  tx: Database,
  u: { orderNo: string; buyerId: number; share: { id: number; userId: number; title: string }; ip: string; now: Date },
): Promise<number> {
  const [order] = await tx
    .insert(orders)
    .values({
      orderNo: u.orderNo,
      productType: 'share',
      shareId: u.share.id,
      sellerId: u.share.userId,
      buyerId: u.buyerId,
      productName: u.share.title,
      amountFen: 0,
      paymentMethod: 'Subscription',
      provider: 'subscription',
      paymentStatus: 'Completed',
      // No gateway trade: our own number stands in, so a SPEC §4 trade-number poll sees it settled.
      providerTradeNo: u.orderNo,
      feeFen: 0,
      feeRateBp: 0,
      sellerIncomeFen: 0,
      buyerIp: u.ip,
      expiresAt: u.now,
      paidAt: u.now,
      // Shown at once: the unlock answers with the content.
      firstRevealedAt: u.now,
      createdAt: u.now,
    })
    .returning({ id: orders.id })
  return order!.id
}

export async function updateOrder(db: Database, orderNo: string, set: Partial<typeof orders.$inferInsert>) {
  await db.update(orders).set(set).where(eq(orders.orderNo, orderNo))
}

export async function findOrder(db: Database, orderNo: string): Promise<OrderRow | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1)
  return order
}

/** The order row, locked for the rest of the transaction. */
export async function lockOrder(tx: Database, id: number): Promise<OrderRow | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
  return order
}

export async function findOrderWithCode(db: Database, id: number) {
  const [row] = await db.select({ order: orders, unicode: shares.unicode }).from(orders).leftJoin(shares, eq(shares.id, orders.shareId)).where(eq(orders.id, id))
  return row
}

/** The order row by its number, locked for the rest of the transaction. */
export async function lockOrderByNo(tx: Database, orderNo: string): Promise<OrderRow | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.orderNo, orderNo)).for('update')
  return order
}

/** A gateway notification, recorded once under its (provider, event key): false when it was already. */
export async function recordInboundEvent(tx: Database, event: typeof inboundEvents.$inferInsert): Promise<boolean> {
  const recorded = await tx.insert(inboundEvents).values(event).onConflictDoNothing().returning({ id: inboundEvents.id })
  return recorded.length > 0
}

/** What a payment fixes on its order: Completed (or Refund when it cannot be honoured), the trade, the split. */
export type PaymentRecord = Pick<OrderRow, 'providerTradeNo' | 'paidAt' | 'feeFen' | 'sellerIncomeFen'> & {
  paymentStatus: 'Completed' | 'Refund'
} & Partial<Pick<OrderRow, 'feeRateBp' | 'settleAt'>>

export async function recordPayment(tx: Database, id: number, payment: PaymentRecord) {
  await tx.update(orders).set(payment).where(eq(orders.id, id))
}

/** The gateway closed the payment: the order failed. */
export async function markFailed(tx: Database, id: number) {
  await tx.update(orders).set({ paymentStatus: 'Failed' }).where(eq(orders.id, id))
}

/** The order's refund, when it is owed and not confirmed yet, locked: the failure recorded so far. */
export async function lockOwedRefund(tx: Database, id: number): Promise<{ failure: string | null } | undefined> {
  const [was] = await tx
    .select({ failure: orders.refundFailure })
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.paymentStatus, 'Refund'), isNull(orders.refundedAt)))
    .for('update')
  return was
}

/** The gateway confirmed the refund. */
export async function markRefunded(tx: Database, id: number, at: Date) {
  await tx.update(orders).set({ refundedAt: at, refundFailure: null }).where(eq(orders.id, id))
}

/** The gateway's final refusal of the refund (CLOSED or ABNORMAL), kept for an admin. */
export async function markRefundFailed(tx: Database, id: number, state: string) {
  await tx.update(orders).set({ refundFailure: state }).where(eq(orders.id, id))
}

/** A Refund order by its number, with where its refund stands. */
export async function findRefundOrder(db: Database, orderNo: string) {
  const [owed] = await db
    .select({ id: orders.id, orderNo: orders.orderNo, amountFen: orders.amountFen, refundedAt: orders.refundedAt, refundFailure: orders.refundFailure })
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.paymentStatus, 'Refund')))
  return owed
}

/** When the gateway was last asked about the order. */
export async function markQueried(db: Database, id: number, at: Date) {
  await db.update(orders).set({ lastQueriedAt: at }).where(eq(orders.id, id))
}

/** Refunds neither confirmed nor failed, the ones asked about longest ago first. */
export function owedRefunds(db: Database, limit: number) {
  return db
    .select({ orderNo: orders.orderNo, provider: orders.provider })
    .from(orders)
    .where(and(eq(orders.paymentStatus, 'Refund'), isNull(orders.refundedAt), isNull(orders.refundFailure)))
    .orderBy(sql`${orders.lastQueriedAt} asc nulls first`, orders.id)
    .limit(limit)
}

/**
 * Claims the right to ask the gateway about an unpaid order: at most every QUERY_INTERVAL_MS per order,
 * and not in its first 2 seconds. Undefined when another request has it, or the order is paid.
 */
export async function claimGatewayQuery(db: Database, orderNo: string, now: Date) {
  const [row] = await db
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
  return row
}

/** Pending orders past their 30 minutes become Failed (a later notify still completes them). */
export async function expirePending(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(orders)
    .set({ paymentStatus: 'Failed' })
    .where(and(eq(orders.paymentStatus, 'Pending'), lt(orders.expiresAt, now)))
    .returning({ id: orders.id })
  return rows.length
}

/**
 * One page of orders, newest first (by creation time; the id breaks ties), with the total. Every filter
 * reads `orders` alone (a share's code and the accounts' names through their ids), so the page is cut
 * from the orders before the joins that only show names: joined first, PostgreSQL walked the orders
 * newest first through the joins, looking for a rare keyword's twenty rows (decision 098).
 */
export async function listOrders(db: Database, q: OrderListQuery, scope: OrderScope) {
  const where = and(
    scope.buyerId ? eq(orders.buyerId, scope.buyerId) : undefined,
    scope.sellerId ? eq(orders.sellerId, scope.sellerId) : undefined,
    q.payment_status ? eq(orders.paymentStatus, q.payment_status) : undefined,
    q.unicode ? inArray(orders.shareId, db.select({ id: shares.id }).from(shares).where(eq(shares.unicode, q.unicode))) : undefined,
    q.orderNo ? (scope.masked ? visiblePartsOf(q.orderNo) : or(eq(orders.orderNo, q.orderNo), eq(orders.providerTradeNo, q.orderNo))) : undefined,
    q.keyword ? or(ilike(orders.productName, containing(q.keyword)), accountNamed(orders.buyerId, q.keyword), accountNamed(orders.sellerId, q.keyword)) : undefined,
    q.from ? gte(orders.createdAt, dayStart(q.from)) : undefined,
    q.to ? lt(orders.createdAt, nextDay(q.to)) : undefined,
    q.refund_state ? refundStateIs(q.refund_state) : undefined,
  )
  const newestFirst = [desc(orders.createdAt), desc(orders.id)]
  // A subquery with a LIMIT is planned on its own. With a keyword, though, the planner cannot know how
  // many orders match (the named accounts' ids exist only once the query runs); guessing hundreds, it
  // walked every order newest first through the filter to find a rare keyword's twenty. So a keyword's
  // matches are found first, by their indexes, and then sorted: MATERIALIZED keeps the two steps apart.
  const idsOf = ({ limit, offset }: { limit: number; offset: number }) =>
    q.keyword
      ? sql`with m as materialized (${db.select({ id: orders.id, createdAt: orders.createdAt }).from(orders).where(where)})
        select id from m order by created_at desc, id desc limit ${limit} offset ${offset}`
      : db.select({ id: orders.id }).from(orders).where(where).orderBy(...newestFirst).limit(limit).offset(offset)
  return readPage(
    q,
    (window) =>
      db
        .select({ order: orders, unicode: shares.unicode, buyerName: buyers.userName, sellerName: sellers.userName })
        .from(orders)
        .leftJoin(shares, eq(shares.id, orders.shareId))
        .leftJoin(buyers, eq(buyers.id, orders.buyerId))
        .leftJoin(sellers, eq(sellers.id, orders.sellerId))
        .where(sql`${orders.id} in (${idsOf(window)})`)
        .orderBy(...newestFirst),
    db.select({ n: count() }).from(orders).where(where),
  )
}

/**
 * One showing of an order's content, kept (decision 102): a new row per order, way, account, visitor
 * and address, else its last time and count moved on. A showing that counts (the buyer's) also sets
 * `first_revealed_at` once. The caller runs both in one transaction.
 */
export async function upsertReveal(
  tx: Database,
  r: { orderId: number; how: RevealKind; counts: boolean; userId: number | null; visitorId: string | null; ip: string; now: Date },
) {
  await tx
    .insert(orderReveals)
    .values({ orderId: r.orderId, how: r.how, counts: r.counts, userId: r.userId, visitorId: r.visitorId, ip: r.ip, firstAt: r.now, lastAt: r.now })
    .onConflictDoUpdate({
      target: [orderReveals.orderId, orderReveals.how, orderReveals.userId, orderReveals.visitorId, orderReveals.ip],
      set: { lastAt: r.now, times: sql`${orderReveals.times} + 1` },
    })
  if (r.counts) await tx.update(orders).set({ firstRevealedAt: r.now }).where(and(eq(orders.id, r.orderId), isNull(orders.firstRevealedAt)))
}

/** Whose reveals: one order's, or those of a seller's orders paid at or after `since`. */
export type RevealScope = { orderId: number } | { sellerId: number; paidSince: Date }

/** The newest `limit` reveals of the scope (the last showing first), with the total. */
export async function listReveals(db: Database, scope: RevealScope, limit: number) {
  const where =
    'orderId' in scope
      ? eq(orderReveals.orderId, scope.orderId)
      : inArray(
          orderReveals.orderId,
          db
            .select({ id: orders.id })
            .from(orders)
            .where(and(eq(orders.sellerId, scope.sellerId), gte(orders.paidAt, scope.paidSince))),
        )
  const [rows, [total]] = await Promise.all([
    db
      .select({ reveal: orderReveals, orderNo: orders.orderNo, username: users.userName })
      .from(orderReveals)
      .innerJoin(orders, eq(orders.id, orderReveals.orderId))
      .leftJoin(users, eq(users.id, orderReveals.userId))
      .where(where)
      .orderBy(desc(orderReveals.lastAt), desc(orderReveals.id))
      .limit(limit),
    db.select({ n: count() }).from(orderReveals).where(where),
  ])
  return { rows, total: total?.n ?? 0 }
}
