import { and, eq, sql } from 'drizzle-orm'
import { shanghaiDay } from '#contract/days.ts'
import type { Database } from '../../db/client.ts'
import { ledgerEntries, type orders, sellerBalances, sellerDailyIncome } from '../../db/schema/index.ts'

/**
 * The seller ledger (DESIGN §2: append-only, balances are sums). This module is the only writer of
 * ledger rows and of their pre-aggregates (`seller_balances`, `seller_daily_income`), which change in
 * the transaction of the row they sum. Every posting runs in the caller's transaction (pass the `tx`),
 * so it commits or rolls back with the order or withdrawal change it accounts for, and is idempotent
 * by a unique key — (order, kind) or (withdrawal, kind): a replay posts nothing.
 */
type PostedOrder = Pick<typeof orders.$inferSelect, 'id' | 'sellerId' | 'sellerIncomeFen' | 'settleAt'>
type Entry = typeof ledgerEntries.$inferInsert & { createdAt: Date; availableAt: Date }

/** Inserts one entry unless its key exists, and moves the aggregates with it. True when posted. */
async function post(tx: Database, entry: Entry): Promise<boolean> {
  const rows = await tx.insert(ledgerEntries).values(entry).onConflictDoNothing().returning({ id: ledgerEntries.id })
  if (rows.length === 0) return false
  const income = entry.kind === 'sale' || entry.kind === 'refund' ? entry.amountFen : 0
  await tx
    .insert(sellerBalances)
    .values({ sellerId: entry.sellerId, balanceFen: entry.amountFen, incomeFen: income })
    .onConflictDoUpdate({
      target: sellerBalances.sellerId,
      set: {
        balanceFen: sql`${sellerBalances.balanceFen} + ${entry.amountFen}`,
        incomeFen: sql`${sellerBalances.incomeFen} + ${income}`,
        updatedAt: sql`now()`,
      },
    })
  if (income !== 0 || entry.kind === 'sale') {
    const sales = entry.kind === 'sale' ? 1 : 0
    await tx
      .insert(sellerDailyIncome)
      .values({ sellerId: entry.sellerId, day: shanghaiDay(entry.createdAt), incomeFen: income, orders: sales })
      .onConflictDoUpdate({
        target: [sellerDailyIncome.sellerId, sellerDailyIncome.day],
        set: { incomeFen: sql`${sellerDailyIncome.incomeFen} + ${income}`, orders: sql`${sellerDailyIncome.orders} + ${sales}` },
      })
  }
  return true
}

/**
 * Credits the seller's income for a paid order, withdrawable from the order's settle time. True when
 * this call posted it.
 */
export async function postSale(tx: Database, order: PostedOrder, at: Date = new Date()): Promise<boolean> {
  if (!order.sellerId || !order.sellerIncomeFen || order.sellerIncomeFen <= 0) return false
  return post(tx, { sellerId: order.sellerId, kind: 'sale', amountFen: order.sellerIncomeFen, orderId: order.id, createdAt: at, availableAt: order.settleAt ?? at })
}

/**
 * Debits what the order's sale credited. Without a posted sale there is nothing to take back (a
 * refund never drives a balance below what the sales gave). The refund carries the sale's own
 * `available_at`, so the pair is unsettled or settled together: a refund of a sale still unsettled
 * takes it back from the unsettled income; of a settled one, from the withdrawable balance at once —
 * which may go negative. Neither depends on when the refund was posted (decision 111: a debit stamped
 * later than a concurrent reader's clock must never count as money still to come). True when posted.
 */
export async function postRefund(tx: Database, order: Pick<PostedOrder, 'id'>, at: Date = new Date()): Promise<boolean> {
  const [sale] = await tx
    .select({ sellerId: ledgerEntries.sellerId, amountFen: ledgerEntries.amountFen, availableAt: ledgerEntries.availableAt })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'sale')))
  if (!sale) return false
  return post(tx, { sellerId: sale.sellerId, kind: 'refund', amountFen: -sale.amountFen, orderId: order.id, createdAt: at, availableAt: sale.availableAt })
}

/** Debits a withdrawal's amount when it is requested (DESIGN §3 Withdrawal). True when posted. */
export async function postWithdrawal(tx: Database, w: { id: number; userId: number; amountFen: number }, at: Date = new Date()): Promise<boolean> {
  return post(tx, { sellerId: w.userId, kind: 'withdrawal', amountFen: -w.amountFen, withdrawalId: w.id, createdAt: at, availableAt: at })
}

/** Credits a rejected withdrawal's amount back, once. True when posted. */
export async function postWithdrawalReversal(tx: Database, w: { id: number; userId: number; amountFen: number }, at: Date = new Date()): Promise<boolean> {
  return post(tx, { sellerId: w.userId, kind: 'withdrawal_reversal', amountFen: w.amountFen, withdrawalId: w.id, createdAt: at, availableAt: at })
}

/**
 * The seller's balance row, locked for the rest of the transaction (created empty when missing), so
 * two withdrawals of one seller run one after the other. Read the clock only after this returns
 * (decision 111).
 */
export async function lockBalance(tx: Database, sellerId: number): Promise<{ balanceFen: number; incomeFen: number }> {
  await tx.insert(sellerBalances).values({ sellerId }).onConflictDoNothing()
  const [row] = await tx
    .select({ balanceFen: sellerBalances.balanceFen, incomeFen: sellerBalances.incomeFen })
    .from(sellerBalances)
    .where(eq(sellerBalances.sellerId, sellerId))
    .for('update')
  return row!
}

/**
 * The seller's income not yet withdrawable at `now`, as one SQL expression: its sales inside their
 * settlement delay, less their refunds (which share the sale's `available_at`). Only sales and refunds
 * count — a withdrawal or its reversal is never "unsettled", whatever its timestamp — so the sum is
 * never negative, and a concurrent posting stamped later than `now` cannot raise what is withdrawable
 * (decision 111). The database's overdraft guard (migration 0011) sums the same entries.
 */
export const unsettledSum = (sellerId: number, now: Date) => sql<string | null>`(
  select coalesce(sum(${ledgerEntries.amountFen}), 0) from ${ledgerEntries}
  where ${ledgerEntries.sellerId} = ${sellerId} and ${ledgerEntries.kind} in ('sale', 'refund') and ${ledgerEntries.availableAt} > ${now.toISOString()}::timestamptz
)`

/** Sum of the entries not yet withdrawable at `now` (see `unsettledSum`). */
export async function unsettledFen(db: Database, sellerId: number, now: Date): Promise<number> {
  const result = await db.execute(sql`select ${unsettledSum(sellerId, now)} as s`)
  return Number((result as unknown as { rows: { s: unknown }[] }).rows[0]?.s ?? 0)
}

/** Withdrawable = balance − unsettled; negative after refunds of settled sales (blocks withdrawals). */
export async function withdrawableFen(db: Database, sellerId: number, now: Date, balanceFen?: number): Promise<number> {
  const balance = balanceFen ?? Number((await db.select({ b: sellerBalances.balanceFen }).from(sellerBalances).where(eq(sellerBalances.sellerId, sellerId)))[0]?.b ?? 0)
  return balance - (await unsettledFen(db, sellerId, now))
}

/**
 * The database's refusal of an overdraft (migration 0011's trigger on `ledger_entries`), from either
 * driver: a withdrawal debit beyond what was withdrawable when it was posted.
 */
export function overdraftRefused(e: unknown): boolean {
  let err = e as { code?: string; constraint?: string; cause?: unknown } | undefined
  for (let i = 0; err && i < 3; i++) {
    if (err.code === '23514' && err.constraint === 'ledger_entries_no_overdraft') return true
    err = err.cause as typeof err
  }
  return false
}
