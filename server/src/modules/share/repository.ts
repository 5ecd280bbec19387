import { and, desc, eq } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { orders } from '../../db/schema/index.ts'

// Reads of orders; they move behind the orders module's service when it lands.

/** The signed-in buyer's completed order of a share, with what tells its buyer (decision 102). */
export async function completedOrderOf(db: Database, shareId: number, buyerId: number) {
  const [row] = await db
    .select({ id: orders.id, orderNo: orders.orderNo, buyerId: orders.buyerId, sellerId: orders.sellerId, buyerKeyHash: orders.buyerKeyHash, paidAt: orders.paidAt })
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
