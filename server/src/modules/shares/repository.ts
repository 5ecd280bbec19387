import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import type { adminShareListQuerySchema } from '#contract/shares.ts'
import type { Database } from '../../db/client.ts'
import { shares, users } from '../../db/schema.ts'
import { accountNamed, containing } from '../../db/search.ts'
import type { SellerRow, ShareRow } from './presenter.ts'

type ListQuery = z.output<typeof adminShareListQuerySchema>

const SORT_COLUMNS = {
  created_at: shares.createdAt,
  price: shares.priceFen,
  visit_count: shares.visitCount,
  purchase_count: shares.purchaseCount,
} as const

const seller = { userName: users.userName, isBanned: users.isBanned }

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
  const [rows, [total]] = await Promise.all([
    db
      .select({ share: shares, seller })
      .from(shares)
      .innerJoin(users, eq(users.id, shares.userId))
      .where(where)
      .orderBy(...orderBy)
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize),
    db.select({ n: count() }).from(shares).innerJoin(users, eq(users.id, shares.userId)).where(where),
  ])
  return { rows, total: total?.n ?? 0 }
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

export async function markDeleted(db: Database, id: number) {
  await db.update(shares).set({ deletedAt: new Date() }).where(eq(shares.id, id))
}

export async function sellerOf(db: Database, userId: number): Promise<SellerRow> {
  const [row] = await db.select(seller).from(users).where(eq(users.id, userId))
  return row!
}
