import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { adminShareListQuerySchema } from '#contract/shares.ts'
import type { Database } from '../../db/client.ts'
import { linkStates, shares, users } from '../../db/schema/index.ts'
import { accountNamed, containing } from '../../db/search.ts'
import type { SellerRow, ShareRow } from './presenter.ts'
import { readPage } from '../../db/paging.ts'

type ListQuery = z.output<typeof adminShareListQuerySchema>

const SORT_COLUMNS = {
  created_at: shares.createdAt,
  price: shares.priceFen,
  visit_count: shares.visitCount,
  purchase_count: shares.purchaseCount,
} as const

const seller = { userName: users.userName, isBanned: users.isBanned }

export type ShareWithSeller = { share: typeof shares.$inferSelect; seller: { userName: string; isBanned: number } }

async function shareWithSeller(db: Database, where: SQL | undefined): Promise<ShareWithSeller | undefined> {
  const [row] = await db
    .select({ share: shares, seller: seller })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(where)
    .limit(1)
  return row
}

/** A share by its code; a deleted one only with `withDeleted` (for those who keep access to it). */
export const shareAndSellerByCode = (db: Database, unicode: string, opts: { withDeleted: boolean }) =>
  shareWithSeller(db, and(eq(shares.unicode, unicode), opts.withDeleted ? undefined : isNull(shares.deletedAt)))

/** The share of an order, deleted or not: the order is the buyer's proof of purchase. */
export const shareAndSellerById = (db: Database, id: number) => shareWithSeller(db, eq(shares.id, id))

/** Not deleted shares, one seller's or everyone's, filtered; newest first unless sorted otherwise, id last. */
export async function listShares(db: Database, q: ListQuery, sellerId?: number) {
  const where = and(
    isNull(shares.deletedAt),
    sellerId ? eq(shares.userId, sellerId) : undefined,
    q.title ? ilike(shares.title, containing(q.title)) : undefined,
    q.type ? eq(shares.type, q.type) : undefined,
    q.status ? eq(shares.status, q.status) : undefined,
    q.keyword ? or(ilike(shares.title, containing(q.keyword)), eq(shares.unicode, q.keyword), accountNamed(shares.userId, q.keyword)) : undefined,
  )
  const column = SORT_COLUMNS[q.sort]
  // The id breaks ties (equal dates or prices), so pages never repeat or skip a row.
  const orderBy: SQL[] = [q.order === 'asc' ? asc(column) : desc(column), desc(shares.id)]
  return readPage(
    q,
    db
      .select({ share: shares, seller, link: linkStates })
      .from(shares)
      .innerJoin(users, eq(users.id, shares.userId))
      .leftJoin(linkStates, eq(linkStates.shareId, shares.id))
      .where(where)
      .orderBy(...orderBy),
    db.select({ n: count() }).from(shares).innerJoin(users, eq(users.id, shares.userId)).where(where),
  )
}

/** A not deleted share, only the given seller's when `userId` is given. */
export async function findLiveShare(db: Database, id: number, userId?: number): Promise<ShareRow | undefined> {
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.id, id), userId === undefined ? undefined : eq(shares.userId, userId), isNull(shares.deletedAt)))
    .limit(1)
  return row
}

/** Shares by id with their seller's name (deleted ones too: an admin may still be deciding a report of one). */
export function sharesById(db: Database, ids: readonly number[]) {
  return db
    .select({ share: shares, userName: users.userName })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(inArray(shares.id, [...ids]))
}

/** A not deleted share locked for the rest of the transaction (only the given seller's when `userId` is given). */
export async function lockLiveShare(tx: Database, id: number, userId?: number): Promise<ShareRow | undefined> {
  const [row] = await tx
    .select()
    .from(shares)
    .where(and(eq(shares.id, id), userId === undefined ? undefined : eq(shares.userId, userId), isNull(shares.deletedAt)))
    .for('update')
  return row
}

export async function insertShare(db: Database, values: typeof shares.$inferInsert): Promise<ShareRow> {
  const [row] = await db.insert(shares).values(values).returning()
  return row!
}

export async function updateShare(db: Database, id: number, set: Partial<typeof shares.$inferInsert>): Promise<ShareRow> {
  const [row] = await db
    .update(shares)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(shares.id, id))
    .returning()
  return row!
}

/** The share row (deleted ones too), locked for the rest of the transaction: one moderation step at a time per share. */
export async function lockShare(tx: Database, id: number): Promise<ShareRow | undefined> {
  const [row] = await tx.select().from(shares).where(eq(shares.id, id)).for('update')
  return row
}

/** A moderation step: the share's new status, and its take-down count when it grows. */
export async function setShareStatus(tx: Database, id: number, set: { status: ShareRow['status']; takedowns?: number }, now: Date): Promise<ShareRow> {
  const [row] = await tx
    .update(shares)
    .set({ ...set, updatedAt: now })
    .where(eq(shares.id, id))
    .returning()
  return row!
}

/** A seller's shares not taken down for good yet, locked and set to violation: answers each one's previous status. */
export async function takeDownAllOf(tx: Database, sellerId: number) {
  const stillUp = and(eq(shares.userId, sellerId), isNull(shares.deletedAt), ne(shares.status, 'violation'))
  const up = await tx.select({ id: shares.id, unicode: shares.unicode, status: shares.status }).from(shares).where(stillUp).for('update')
  if (up.length > 0) await tx.update(shares).set({ status: 'violation' }).where(stillUp)
  return up
}

/**
 * A share's status and whether its seller is banned, with both rows share-locked — the seller's first,
 * the order in which a ban and the fraud action lock them (decision 111), so they never wait on each other.
 */
export async function lockShareAndSeller(tx: Database, shareId: number) {
  const [seller] = await tx
    .select({ isBanned: users.isBanned })
    .from(users)
    .where(eq(users.id, sql`(select ${shares.userId} from ${shares} where ${shares.id} = ${shareId})`))
    .for('share')
  // The share row for update (no key update: its id stays): the sale that follows counts itself on it,
  // and two payments of one share each holding a share lock and then updating the row deadlocked on
  // PostgreSQL (the cluster test, issue 22). Payments of one share now pass one after the other.
  const [share] = await tx.select({ status: shares.status }).from(shares).where(eq(shares.id, shareId)).for('no key update')
  return share && seller ? [{ status: share.status, sellerBanned: seller.isBanned }] : []
}

/** One more sale (or free unlock) of the share. */
export async function countPurchase(tx: Database, shareId: number) {
  await tx
    .update(shares)
    .set({ purchaseCount: sql`${shares.purchaseCount} + 1` })
    .where(eq(shares.id, shareId))
}

export async function markDeleted(db: Database, id: number) {
  await db.update(shares).set({ deletedAt: new Date() }).where(eq(shares.id, id))
}

export async function sellerOf(db: Database, userId: number): Promise<SellerRow> {
  const [row] = await db.select(seller).from(users).where(eq(users.id, userId))
  return row!
}

/** A dead link stops the sales (`at`), or a passing check puts the share back on sale (null) — for modules/linkcheck. */
export async function setLinkStopped(tx: Database, id: number, at: Date | null) {
  const [row] = await tx.update(shares).set({ linkStoppedAt: at }).where(eq(shares.id, id)).returning({ unicode: shares.unicode })
  return row
}
