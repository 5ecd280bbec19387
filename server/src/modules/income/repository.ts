import { and, asc, eq, gte, lte, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { sellerDailyIncome } from '../../db/schema/index.ts'
import { unsettledSum } from '../ledger/index.ts'
import type { DayFigures, IncomeSums } from './rules.ts'

/** int8 sums arrive as strings (pg) or numbers (PGlite); fen stay far below 2^53. */
const fen = (v: unknown) => Number(v ?? 0)

/**
 * The summary's sums for one seller in ONE statement, so they come from one snapshot (a posting between
 * two queries could otherwise show a sale in the balance but not yet as unsettled). Reads the
 * pre-aggregates — `seller_balances` (one row), `seller_daily_income` of this month (≤ 31 rows) — and
 * the ledger entries not yet available (`ledger_entries_available_idx`: only the sales of the last
 * settlement delay); never the whole ledger. The unsettled sum is the ledger's `unsettledFen`.
 */
export async function incomeSums(db: Database, sellerId: number, now: Date, cal: { today: string; monthStart: string; nextMonthStart: string }): Promise<IncomeSums> {
  const result = await db.execute(sql`
    select
      b.balance_fen as "balanceFen",
      b.income_fen as "incomeFen",
      d.today_fen as "todayFen",
      d.month_fen as "monthFen",
      u.unsettled_fen as "unsettledFen"
    from (select 1) as one
    left join seller_balances b on b.seller_id = ${sellerId}
    cross join lateral (
      select coalesce(sum(income_fen) filter (where day = ${cal.today}), 0) as today_fen, coalesce(sum(income_fen), 0) as month_fen
      from seller_daily_income
      where seller_id = ${sellerId} and day >= ${cal.monthStart} and day < ${cal.nextMonthStart}
    ) d
    cross join lateral (select ${unsettledSum(sellerId, now)} as unsettled_fen) u`)
  const row = (result as unknown as { rows: Record<keyof IncomeSums, unknown>[] }).rows[0]
  return {
    balanceFen: fen(row?.balanceFen),
    incomeFen: fen(row?.incomeFen),
    todayFen: fen(row?.todayFen),
    monthFen: fen(row?.monthFen),
    unsettledFen: fen(row?.unsettledFen),
  }
}

/** The stored days of one seller from `from` to `to` (yyyy-MM-dd, inclusive), oldest first. */
export async function dailyIncome(db: Database, sellerId: number, from: string, to: string): Promise<DayFigures[]> {
  const rows = await db
    .select({ day: sellerDailyIncome.day, incomeFen: sellerDailyIncome.incomeFen, orders: sellerDailyIncome.orders })
    .from(sellerDailyIncome)
    .where(and(eq(sellerDailyIncome.sellerId, sellerId), gte(sellerDailyIncome.day, from), lte(sellerDailyIncome.day, to)))
    .orderBy(asc(sellerDailyIncome.day))
  return rows.map((r) => ({ day: r.day, incomeFen: fen(r.incomeFen), orders: r.orders }))
}
