import { and, eq } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { ledgerEntries, type orders } from '../../db/schema.ts'

/**
 * The seller ledger (DESIGN §2: append-only, balances are sums). This module is the only writer of
 * ledger rows: sales and refunds now, withdrawals, channels and subscriptions later. Every posting
 * runs in the caller's transaction (pass the `tx`), so it commits or rolls back with the order change
 * it accounts for, and is idempotent by the unique (order, kind) key: a replay posts nothing.
 */
type PostedOrder = Pick<typeof orders.$inferSelect, 'id' | 'sellerId' | 'sellerIncomeFen'>

/** Credits the seller's income for a paid order. True when this call posted it. */
export async function postSale(tx: Database, order: PostedOrder, at?: Date): Promise<boolean> {
  if (!order.sellerId || !order.sellerIncomeFen || order.sellerIncomeFen <= 0) return false
  const rows = await tx
    .insert(ledgerEntries)
    .values({ sellerId: order.sellerId, kind: 'sale', amountFen: order.sellerIncomeFen, orderId: order.id, ...(at ? { createdAt: at } : {}) })
    .onConflictDoNothing()
    .returning({ id: ledgerEntries.id })
  return rows.length > 0
}

/**
 * Debits what the order's sale credited. Without a posted sale there is nothing to take back (a
 * refund never drives a balance below what the sales gave). True when this call posted it.
 */
export async function postRefund(tx: Database, order: Pick<PostedOrder, 'id'>, at?: Date): Promise<boolean> {
  const [sale] = await tx
    .select({ sellerId: ledgerEntries.sellerId, amountFen: ledgerEntries.amountFen })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'sale')))
  if (!sale) return false
  const rows = await tx
    .insert(ledgerEntries)
    .values({ sellerId: sale.sellerId, kind: 'refund', amountFen: -sale.amountFen, orderId: order.id, ...(at ? { createdAt: at } : {}) })
    .onConflictDoNothing()
    .returning({ id: ledgerEntries.id })
  return rows.length > 0
}
