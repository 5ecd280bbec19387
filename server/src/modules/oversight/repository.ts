import { and, asc, count, eq, gte, inArray, isNull, ne, sql, sum } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { fraudActions, orders, shares, users } from '../../db/schema/index.ts'

export type FraudRun = typeof fraudActions.$inferSelect

/**
 * The one rule of what "ban seller and refund buyers" refunds — the preview counts and lists it, the
 * action refunds it: the seller's paid share orders whose content was never revealed to the buyer,
 * paid at or after `since`. `first_revealed_at` is set only by the buyer's own reveals — its account or
 * the browser that paid — never by the seller's, an admin's or an order number's alone (decision 102).
 */
const refundable = (sellerId: number, since: Date) =>
  and(
    eq(orders.sellerId, sellerId),
    eq(orders.productType, 'share'),
    eq(orders.paymentStatus, 'Completed'),
    isNull(orders.firstRevealedAt),
    gte(orders.paidAt, since),
  )

/** The first `limit` of them, oldest payment first, with the buyer's name. */
export function refundableOrders(db: Database, sellerId: number, since: Date, limit: number) {
  return db
    .select({
      id: orders.id,
      orderNo: orders.orderNo,
      productName: orders.productName,
      amountFen: orders.amountFen,
      paymentMethod: orders.paymentMethod,
      paidAt: orders.paidAt,
      buyerName: users.userName,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.buyerId))
    .where(refundable(sellerId, since))
    .orderBy(asc(orders.paidAt), asc(orders.id))
    .limit(limit)
}

/** How many there are and their total, in fen. */
export async function refundableSums(db: Database, sellerId: number, since: Date) {
  const [row] = await db
    .select({ n: count(), fen: sum(orders.amountFen) })
    .from(orders)
    .where(refundable(sellerId, since))
  return { count: row?.n ?? 0, fen: Number(row?.fen ?? 0) }
}

/** The seller's shares not taken down for good yet (not deleted, status other than violation). */
export function sharesStillUp(db: Database, sellerId: number) {
  return db
    .select({ id: shares.id, title: shares.title, unicode: shares.unicode, status: shares.status, priceFen: shares.priceFen })
    .from(shares)
    .where(and(eq(shares.userId, sellerId), isNull(shares.deletedAt), ne(shares.status, 'violation')))
    .orderBy(asc(shares.id))
}


export async function findRun(db: Database, sellerId: number): Promise<FraudRun | null> {
  const [row] = await db.select().from(fraudActions).where(eq(fraudActions.sellerId, sellerId))
  return row ?? null
}

/**
 * Claims the seller's one row for a run (unique per seller): inserted, or taken over when the last run
 * finished, stopped or let its lease run out. Null when another run holds it. Under concurrency the
 * unique index makes the second claimant wait for the first and then see its live lease.
 */
export async function claimRun(tx: Database, r: { sellerId: number; actorId: number; since: Date; now: Date; leaseUntil: Date }): Promise<FraudRun | null> {
  const [row] = await tx
    .insert(fraudActions)
    .values({ sellerId: r.sellerId, actorId: r.actorId, state: 'running', since: r.since, leaseUntil: r.leaseUntil, createdAt: r.now })
    .onConflictDoUpdate({
      target: fraudActions.sellerId,
      set: {
        actorId: r.actorId,
        state: 'running',
        leaseUntil: r.leaseUntil,
        lastError: null,
        finishedAt: null,
        // A finished action is a new one: new window, new counts; an unfinished one is resumed as it was.
        since: sql`case when ${fraudActions.state} = 'done' then excluded.since else ${fraudActions.since} end`,
        refundedCount: sql`case when ${fraudActions.state} = 'done' then 0 else ${fraudActions.refundedCount} end`,
        refundedFen: sql`case when ${fraudActions.state} = 'done' then 0 else ${fraudActions.refundedFen} end`,
        createdAt: sql`case when ${fraudActions.state} = 'done' then excluded.created_at else ${fraudActions.createdAt} end`,
      },
      setWhere: sql`${fraudActions.state} <> 'running' or ${fraudActions.leaseUntil} is null or ${fraudActions.leaseUntil} < ${r.now}`,
    })
    .returning()
  return row ?? null
}

/** One refund of the run committed (in the refund's own transaction): counted, and the lease renewed. */
export async function countRefund(tx: Database, runId: number, amountFen: number, leaseUntil: Date) {
  await tx
    .update(fraudActions)
    .set({ refundedCount: sql`${fraudActions.refundedCount} + 1`, refundedFen: sql`${fraudActions.refundedFen} + ${amountFen}`, leaseUntil })
    .where(eq(fraudActions.id, runId))
}

export async function finishRun(tx: Database, runId: number, now: Date): Promise<FraudRun> {
  const [row] = await tx
    .update(fraudActions)
    .set({ state: 'done', leaseUntil: null, finishedAt: now, lastError: null })
    .where(eq(fraudActions.id, runId))
    .returning()
  return row!
}

/** A run that stopped on an error: resumable at once by the next run. */
export async function interruptRun(db: Database, runId: number, error: string) {
  await db
    .update(fraudActions)
    .set({ state: 'interrupted', leaseUntil: null, lastError: error.slice(0, 500) })
    .where(eq(fraudActions.id, runId))
}

/** A queue's sellers by name (decision 125): counts over their refunded sales, reports against their shares, take-downs and banned shares. */
export function sellerHistories(db: Database, names: readonly string[]) {
  // Written out: drizzle drops the table names of columns inside sql``, and `id` is in every table here.
  return db
    .select({
      id: users.id,
      userName: users.userName,
      isBanned: users.isBanned,
      refunds: sql<number>`(select count(*) from orders o where o.seller_id = "users"."id" and o.payment_status = 'Refund')`.mapWith(Number),
      reports: sql<number>`(select count(*) from reports r join shares s on s.id = r.share_id where s.user_id = "users"."id")`.mapWith(Number),
      takedowns: sql<number>`(select coalesce(sum(s.takedowns), 0) from shares s where s.user_id = "users"."id")`.mapWith(Number),
      bannedShares: sql<number>`(select count(*) from shares s where s.user_id = "users"."id" and s.status = 'violation')`.mapWith(Number),
    })
    .from(users)
    .where(inArray(users.userName, [...names]))
}
