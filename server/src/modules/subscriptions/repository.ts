import { and, asc, count, desc, eq, gt, ilike, lte, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { adminSubscriptionListQuerySchema } from '#contract/subscriptions.ts'
import type { Database } from '../../db/client.ts'
import { orders, packages, subscriptions, subscriptionUnlocks, users } from '../../db/schema/index.ts'
import { containing } from '../../db/search.ts'
import { readPage } from '../../db/paging.ts'
import { insertUnlockOrder } from '../orders/index.ts'
import { countPurchase } from '../shares/index.ts'

type ListQuery = z.output<typeof adminSubscriptionListQuerySchema>
export type SubscriptionListRow = {
  sub: typeof subscriptions.$inferSelect
  userName: string
  packageName: string
  downloadLimit: number
}

/**
 * The user's open subscriptions with their package's daily limit, locked (FOR UPDATE of the
 * subscription rows only, in id order) for the rest of the transaction: two unlocks of one user run one
 * after the other, while other users of the same package are not held up.
 */
export async function lockOpenSubscriptions(tx: Database, userId: number, now: Date) {
  return tx
    .select({ id: subscriptions.id, downloadLimit: packages.downloadLimit, expiresAt: subscriptions.expiresAt })
    .from(subscriptions)
    .innerJoin(packages, eq(packages.id, subscriptions.packageId))
    .where(and(eq(subscriptions.userId, userId), gt(subscriptions.expiresAt, now)))
    .orderBy(asc(subscriptions.id))
    .for('update', { of: subscriptions })
}

/** The daily limits of the user's open subscriptions (no lock: for showing the allowance). */
export async function openLimits(db: Database, userId: number, now: Date): Promise<number[]> {
  const rows = await db
    .select({ limit: packages.downloadLimit })
    .from(subscriptions)
    .innerJoin(packages, eq(packages.id, subscriptions.packageId))
    .where(and(eq(subscriptions.userId, userId), gt(subscriptions.expiresAt, now)))
  return rows.map((r) => r.limit)
}

/** Free unlocks the user made on an Asia/Shanghai day (yyyy-MM-dd). */
export async function countUnlocksOn(db: Database, userId: number, day: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(subscriptionUnlocks)
    .where(and(eq(subscriptionUnlocks.userId, userId), eq(subscriptionUnlocks.day, day)))
  return row?.n ?? 0
}

/** The user's completed order of the share — a purchase or an earlier free unlock — if any. */
export async function completedOrderNo(db: Database, userId: number, shareId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(and(eq(orders.shareId, shareId), eq(orders.buyerId, userId), eq(orders.paymentStatus, 'Completed')))
    .orderBy(asc(orders.id))
    .limit(1)
  return row?.orderNo
}

/**
 * A free unlock, written whole in the caller's transaction: the zero-amount Completed order that lists
 * it under My orders (no fee, no income, no ledger entry), the unlock row (unique per user and share),
 * and the share's purchase count.
 */
export async function recordUnlock(
  tx: Database,
  u: { orderNo: string; userId: number; subscriptionId: number; share: { id: number; userId: number; title: string }; day: string; ip: string; now: Date },
) {
  const orderId = await insertUnlockOrder(tx, { orderNo: u.orderNo, buyerId: u.userId, share: u.share, ip: u.ip, now: u.now })
  await tx.insert(subscriptionUnlocks).values({ userId: u.userId, subscriptionId: u.subscriptionId, shareId: u.share.id, orderId, day: u.day, createdAt: u.now })
  await countPurchase(tx, u.share.id)
}

/** Subscriptions, open ones first (soonest to expire last), then expired ones, newest first; one user's or everyone's. */
export async function listSubscriptions(db: Database, q: ListQuery, now: Date, userId?: number): Promise<{ rows: SubscriptionListRow[]; total: number }> {
  const where = and(
    userId ? eq(subscriptions.userId, userId) : undefined,
    q.status === 'opened' ? gt(subscriptions.expiresAt, now) : q.status === 'expired' ? lte(subscriptions.expiresAt, now) : undefined,
    q.keyword ? or(ilike(users.userName, containing(q.keyword)), ilike(packages.name, containing(q.keyword))) : undefined,
  )
  const base = () =>
    db
      .select({ sub: subscriptions, userName: users.userName, packageName: packages.name, downloadLimit: packages.downloadLimit })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(packages, eq(packages.id, subscriptions.packageId))
      .where(where)
  const rows = userId
    ? base().orderBy(desc(sql`${subscriptions.expiresAt} > ${now}`), desc(subscriptions.expiresAt), desc(subscriptions.id))
    : base().orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
  return readPage(
    q,
    rows,
    db
      .select({ n: count() })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .innerJoin(packages, eq(packages.id, subscriptions.packageId))
      .where(where),
  )
}
