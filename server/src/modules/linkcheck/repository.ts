import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { adminLinkListQuerySchema, DeadLinkRefundState, LinkResult, LinkTrigger } from '#contract/links.ts'
import type { Database } from '../../db/client.ts'
import { readPage } from '../../db/paging.ts'
import { deadLinkRefunds, linkChecks, linkStates, orders, shares, users } from '../../db/schema/index.ts'
import { accountNamed, containing } from '../../db/search.ts'

export type LinkStateRow = typeof linkStates.$inferSelect

/** The link state of a share, locked for the rest of the transaction. */
export async function lockState(tx: Database, shareId: number): Promise<LinkStateRow | undefined> {
  const [row] = await tx.select().from(linkStates).where(eq(linkStates.shareId, shareId)).for('update')
  return row
}

export async function stateOf(db: Database, shareId: number): Promise<LinkStateRow | undefined> {
  const [row] = await db.select().from(linkStates).where(eq(linkStates.shareId, shareId))
  return row
}

/** A first state row (its first check spread over the day by `nextCheckAt`); an existing one is kept. */
export async function ensureState(db: Database, shareId: number, host: string, nextCheckAt: Date) {
  await db.insert(linkStates).values({ shareId, host, nextCheckAt }).onConflictDoNothing()
}

export async function updateState(tx: Database, shareId: number, set: Partial<typeof linkStates.$inferInsert>) {
  const [row] = await tx.update(linkStates).set(set).where(eq(linkStates.shareId, shareId)).returning()
  return row!
}

export async function insertCheck(
  tx: Database,
  c: { shareId: number; result: LinkResult; reason: string | null; httpStatus: number | null; finalUrl: string; trigger: LinkTrigger; durationMs: number; checkedAt: Date },
) {
  const [row] = await tx.insert(linkChecks).values(c).returning()
  return row!
}

export function checksOf(db: Database, shareId: number, limit = 50) {
  return db.select().from(linkChecks).where(eq(linkChecks.shareId, shareId)).orderBy(desc(linkChecks.id)).limit(limit)
}

/** Url and netdisk shares with no state row yet (made before the checker, or by the seed), oldest first. */
export function sharesWithoutState(db: Database, limit: number) {
  return db
    .select({ id: shares.id, contentEnc: shares.contentEnc })
    .from(shares)
    .leftJoin(linkStates, eq(linkStates.shareId, shares.id))
    .where(and(inArray(shares.type, ['url', 'netdisk']), isNull(shares.deletedAt), isNull(linkStates.shareId)))
    .orderBy(asc(shares.id))
    .limit(limit)
}

/**
 * Claims the approved, live link shares due for their scheduled check: their next check is pushed
 * `leaseMs` ahead in the same statement (rows locked by another instance are skipped), so two instances
 * never check one link in one round. Answers whether each one sells (a paid order in the last 7 days).
 */
export async function claimDue(db: Database, now: Date, limit: number, leaseMs: number) {
  const rows = await db.execute<{ share_id: number; sells: boolean }>(sql`
    with due as (
      select ls.share_id from ${linkStates} ls
      join ${shares} s on s.id = ls.share_id
      where ls.next_check_at <= ${now.toISOString()}::timestamptz and s.status = 'approved' and s.deleted_at is null and s.type in ('url', 'netdisk')
      order by ls.next_check_at
      limit ${limit}
      for update of ls skip locked
    )
    update ${linkStates} set next_check_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    from due where ${linkStates.shareId} = due.share_id
    returning ${linkStates.shareId} as share_id,
      exists(select 1 from ${orders} o where o.share_id = ${linkStates.shareId} and o.payment_status = 'Completed'
             and o.paid_at > ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}::timestamptz) as sells`)
  return (rows as unknown as { rows: { share_id: number; sells: boolean }[] }).rows.map((r) => ({ shareId: Number(r.share_id), sells: Boolean(r.sells) }))
}

/** Whether the share sold in the last 7 days (checked more often). */
export async function sells(db: Database, shareId: number, now: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.shareId, shareId), eq(orders.paymentStatus, 'Completed'), sql`${orders.paidAt} > ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}::timestamptz`))
  return (row?.n ?? 0) > 0
}

type ListQuery = z.output<typeof adminLinkListQuerySchema>

/** The admin's Dead links page: stopped first, then dead, unknown, the rest; newest check first. */
export function listLinks(db: Database, q: ListQuery) {
  const where = and(
    isNull(shares.deletedAt),
    q.state === 'stopped' ? isNotNull(linkStates.stoppedAt) : q.state ? eq(linkStates.state, q.state) : undefined,
    q.host ? ilike(linkStates.host, containing(q.host)) : undefined,
    q.seller ? accountNamed(shares.userId, q.seller) : undefined,
  )
  const rank = sql`case when ${linkStates.stoppedAt} is not null then 0 when ${linkStates.state} = 'dead' then 1 when ${linkStates.state} = 'unknown' then 2 else 3 end`
  const orderBy: SQL[] = [asc(rank), sql`${linkStates.lastCheckedAt} desc nulls last`, desc(linkStates.shareId)]
  return readPage(
    q,
    db
      .select({ state: linkStates, unicode: shares.unicode, title: shares.title, sellerId: shares.userId, userName: users.userName })
      .from(linkStates)
      .innerJoin(shares, eq(shares.id, linkStates.shareId))
      .innerJoin(users, eq(users.id, shares.userId))
      .where(where)
      .orderBy(...orderBy),
    db.select({ n: count() }).from(linkStates).innerJoin(shares, eq(shares.id, linkStates.shareId)).where(where),
  )
}

/** A seller's checks and dead checks over all its links, and how many of its live links are dead now. */
export async function sellerRate(db: Database, sellerId: number) {
  const [row] = await db
    .select({
      checks: sql<number>`coalesce(sum(${linkStates.checks}), 0)::int`,
      deadChecks: sql<number>`coalesce(sum(${linkStates.deadChecks}), 0)::int`,
      links: sql<number>`count(*)::int`,
      deadLinks: sql<number>`(count(*) filter (where ${linkStates.state} = 'dead'))::int`,
    })
    .from(linkStates)
    .innerJoin(shares, eq(shares.id, linkStates.shareId))
    .where(and(eq(shares.userId, sellerId), isNull(shares.deletedAt)))
  return row ?? { checks: 0, deadChecks: 0, links: 0, deadLinks: 0 }
}

/** An order with what the refund request needs. */
export async function orderByNo(db: Database, orderNo: string) {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
  return row
}

export async function refundRequestOf(db: Database, orderId: number) {
  const [row] = await db.select().from(deadLinkRefunds).where(eq(deadLinkRefunds.orderId, orderId))
  return row
}

/** The request, once per order (its primary key): a replay inserts nothing. */
export async function insertRefundRequest(db: Database, r: { orderId: number; shareId: number; requestedAt: Date }) {
  await db.insert(deadLinkRefunds).values(r).onConflictDoNothing()
}

/** Moves a request on from `requested`, once: answers whether this call moved it. */
export async function closeRefundRequest(tx: Database, orderId: number, state: DeadLinkRefundState, at: Date) {
  const moved = await tx
    .update(deadLinkRefunds)
    .set({ state, doneAt: at })
    .where(and(eq(deadLinkRefunds.orderId, orderId), eq(deadLinkRefunds.state, 'requested')))
    .returning({ orderId: deadLinkRefunds.orderId })
  return moved.length > 0
}

/** The link was fixed: its waiting requests are cancelled. */
export async function cancelRefundRequests(tx: Database, shareId: number, at: Date) {
  await tx
    .update(deadLinkRefunds)
    .set({ state: 'cancelled', doneAt: at })
    .where(and(eq(deadLinkRefunds.shareId, shareId), eq(deadLinkRefunds.state, 'requested')))
}

/** Requests whose fix window is over (the share still stopped since before `stoppedBefore`). */
export function overdueRefundRequests(db: Database, stoppedBefore: Date, limit = 200) {
  return db
    .select({ orderId: deadLinkRefunds.orderId, orderNo: orders.orderNo })
    .from(deadLinkRefunds)
    .innerJoin(linkStates, eq(linkStates.shareId, deadLinkRefunds.shareId))
    .innerJoin(orders, eq(orders.id, deadLinkRefunds.orderId))
    .where(and(eq(deadLinkRefunds.state, 'requested'), lte(linkStates.stoppedAt, stoppedBefore)))
    .orderBy(asc(deadLinkRefunds.requestedAt))
    .limit(limit)
}

/** The sellers whose links were found dead most often: dead checks among checks, then the most dead checks. */
export function worstSellers(db: Database, limit: number) {
  const checks = sql<number>`sum(${linkStates.checks})::int`
  const deadChecks = sql<number>`sum(${linkStates.deadChecks})::int`
  return db
    .select({
      sellerId: shares.userId,
      userName: users.userName,
      checks,
      deadChecks,
      links: sql<number>`count(*)::int`,
      deadLinks: sql<number>`(count(*) filter (where ${linkStates.state} = 'dead'))::int`,
    })
    .from(linkStates)
    .innerJoin(shares, eq(shares.id, linkStates.shareId))
    .innerJoin(users, eq(users.id, shares.userId))
    .where(isNull(shares.deletedAt))
    .groupBy(shares.userId, users.userName)
    .having(sql`sum(${linkStates.deadChecks}) > 0`)
    .orderBy(sql`sum(${linkStates.deadChecks})::float / sum(${linkStates.checks}) desc`, sql`sum(${linkStates.deadChecks}) desc`, asc(shares.userId))
    .limit(limit)
}
