import { and, desc, eq, isNull, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { orders, shares, users } from '../../db/schema/index.ts'

export type ShareWithSeller = { share: typeof shares.$inferSelect; seller: { userName: string; isBanned: number } }

async function shareWithSeller(db: Database, where: SQL | undefined): Promise<ShareWithSeller | undefined> {
  const [row] = await db
    .select({ share: shares, seller: { userName: users.userName, isBanned: users.isBanned } })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(where)
    .limit(1)
  return row
}

/** A share by its code; a deleted one only with `withDeleted` (for those who keep access to it). */
export const shareByCode = (db: Database, unicode: string, opts: { withDeleted: boolean }) =>
  shareWithSeller(db, and(eq(shares.unicode, unicode), opts.withDeleted ? undefined : isNull(shares.deletedAt)))

/** The share of an order, deleted or not: the order is the buyer's proof of purchase. */
export const shareById = (db: Database, id: number) => shareWithSeller(db, eq(shares.id, id))

// Reads of orders; they move behind the orders module's service when it lands.

/** The signed-in buyer's completed order of a share, with what tells its buyer (decision 102). */
export async function completedOrderOf(db: Database, shareId: number, buyerId: number) {
  const [row] = await db
    .select({ id: orders.id, orderNo: orders.orderNo, buyerId: orders.buyerId, sellerId: orders.sellerId, buyerKeyHash: orders.buyerKeyHash })
    .from(orders)
    .where(and(eq(orders.shareId, shareId), eq(orders.buyerId, buyerId), eq(orders.paymentStatus, 'Completed')))
    .orderBy(desc(orders.id))
    .limit(1)
  return row
}

export async function orderByNo(db: Database, orderNo: string) {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1)
  return row
}

export async function orderById(db: Database, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
  return row
}
