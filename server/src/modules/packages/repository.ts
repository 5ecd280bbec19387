import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { adminPackageListQuerySchema } from '#contract/packages.ts'
import type { Database } from '../../db/client.ts'
import { orders, packages, subscriptions } from '../../db/schema/index.ts'
import { containing } from '../../db/search.ts'
import { type PageQuery, readPage } from '../../db/paging.ts'

export type PackageRow = typeof packages.$inferSelect
type AdminQuery = z.output<typeof adminPackageListQuerySchema>

export async function findPackage(db: Database, id: number): Promise<PackageRow | undefined> {
  const [row] = await db.select().from(packages).where(eq(packages.id, id)).limit(1)
  return row
}

/** The packages on sale, cheapest first. */
export async function listOnSale(db: Database, q: PageQuery) {
  const where = eq(packages.status, 'on_sale')
  return readPage(q, db.select().from(packages).where(where).orderBy(asc(packages.priceFen), asc(packages.id)), db.select({ n: count() }).from(packages).where(where))
}

/**
 * Subscribers of each package, by a join (the package's columns stay qualified): every user who ever
 * subscribed, and those whose subscription is open at `now`.
 */
const withSubscriberCounts = (db: Database, now: Date) =>
  db
    .select({
      pkg: packages,
      subscriptionCount: count(subscriptions.id),
      openedCount: sql<number>`count(${subscriptions.id}) filter (where ${subscriptions.expiresAt} > ${now})`.mapWith(Number),
    })
    .from(packages)
    .leftJoin(subscriptions, eq(subscriptions.packageId, packages.id))

export type AdminPackageRow = { pkg: PackageRow; subscriptionCount: number; openedCount: number }

/** Every package, newest first, with its subscriber counts. */
export async function listAll(db: Database, q: AdminQuery, now: Date): Promise<{ rows: AdminPackageRow[]; total: number }> {
  const where = and(q.status ? eq(packages.status, q.status) : undefined, q.keyword ? ilike(packages.name, containing(q.keyword)) : undefined)
  return readPage(
    q,
    withSubscriberCounts(db, now).where(where).groupBy(packages.id).orderBy(desc(packages.createdAt), desc(packages.id)),
    db.select({ n: count() }).from(packages).where(where),
  )
}

export async function withCounts(db: Database, id: number, now: Date): Promise<AdminPackageRow | undefined> {
  const [row] = await withSubscriberCounts(db, now).where(eq(packages.id, id)).groupBy(packages.id)
  return row
}

export async function insertPackage(db: Database, values: typeof packages.$inferInsert): Promise<PackageRow> {
  const [row] = await db.insert(packages).values(values).returning()
  return row!
}

export async function updatePackage(db: Database, id: number, set: Partial<typeof packages.$inferInsert>): Promise<PackageRow | undefined> {
  const [row] = await db.update(packages).set(set).where(eq(packages.id, id)).returning()
  return row
}

/**
 * Deletes a package nobody ever ordered, in one transaction: the package row locked, then its
 * subscriptions and orders counted. 'gone' when there is no such package, 'used' when it has any.
 */
export async function deleteUnused(db: Database, id: number): Promise<'deleted' | 'gone' | 'used'> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, id)).for('update')
    if (!locked) return 'gone'
    const [subs] = await tx.select({ n: count() }).from(subscriptions).where(eq(subscriptions.packageId, id))
    const [ordered] = await tx.select({ n: count() }).from(orders).where(eq(orders.packageId, id))
    if ((subs?.n ?? 0) > 0 || (ordered?.n ?? 0) > 0) return 'used'
    await tx.delete(packages).where(eq(packages.id, id))
    return 'deleted'
  })
}
