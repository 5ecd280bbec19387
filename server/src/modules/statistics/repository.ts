import { type SQL, sql } from 'drizzle-orm'
import { dayStart } from '#contract/days.ts'
import { rangeEnd, type StatisticsTab } from '#contract/statistics.ts'
import type { Database } from '../../db/client.ts'
import { type FigureName, rangePlan, type Sums, TAB_FIGURES } from './rules.ts'

type Row = Record<string, unknown>
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows
/** int8 sums arrive as strings (pg) or numbers (PGlite); they stay far below 2^53. */
const num = (v: unknown) => Number(v ?? 0)

export type Range = { from: string; to: string }

const COLUMNS = ['orders', 'completed', 'pending', 'failed', 'refunded', 'free', 'amount_fen', 'completed_fen', 'pending_fen', 'refund_fen', 'fee_fen', 'income_fen']

/**
 * The aggregate rows of one side (`user_id` and the summed columns) whose sum over a user is that
 * user's figures for the range: whole months from the monthly rows, minus their days outside the
 * range, plus the range's other days (`rangePlan`, decision 074). A user with no order in the range
 * may sum to all zeros (a month minus the same month's days): the tabs leave those out.
 */
function sideRows(side: 'seller' | 'buyer', r: Range): SQL {
  const plan = rangePlan(r.from, r.to)
  const cols = (sign: string) => sql.raw(COLUMNS.map((c) => `${sign}${c} as ${c}`).join(', '))
  const dayRanges = (list: { from: string; to: string }[]) =>
    sql.join(
      list.map((d) => sql`(day >= ${d.from} and day <= ${d.to})`),
      sql` or `,
    )
  const parts: SQL[] = []
  if (plan.days.length > 0) parts.push(sql`select user_id, ${cols('')} from order_daily_stats where side = ${side} and (${dayRanges(plan.days)})`)
  if (plan.months.length > 0) {
    const months = sql.join(
      plan.months.map((m) => sql`${m}`),
      sql`, `,
    )
    parts.push(sql`select user_id, ${cols('')} from order_daily_stats where side = ${`${side}_month`} and day in (${months})`)
  }
  if (plan.minusDays.length > 0) parts.push(sql`select user_id, ${cols('-')} from order_daily_stats where side = ${side} and (${dayRanges(plan.minusDays)})`)
  return sql.join(parts, sql` union all `)
}

/**
 * Per user, one row of a tab's figures over the range: `user_id` and one column per figure (named as
 * the figure). Read from `order_daily_stats` (by its primary key's day range) and, for withdrawals,
 * from `withdrawals` by `withdrawals_created_idx` — never a scan of all orders (decision 073).
 */
function perUser(tab: StatisticsTab, r: Range): SQL {
  const instants = sql`created_at >= ${dayStart(r.from).toISOString()}::timestamptz and created_at < ${rangeEnd(r.to).toISOString()}::timestamptz`
  switch (tab) {
    case 'orders':
      return sql`select user_id, sum(orders) as "orders", sum(completed) as "completed", sum(pending) as "pending", sum(failed) as "failed",
          sum(refunded) as "refunded", sum(completed_fen) as "amount", sum(refund_fen) as "refundAmount"
        from (${sideRows('buyer', r)}) s group by user_id having sum(orders) <> 0`
    case 'sellers':
      // user_id 0 holds the platform's own products (channels, packages): not a seller.
      return sql`select user_id, sum(orders) as "orders", sum(completed) as "completed", sum(pending) as "pending", sum(failed) as "failed",
          sum(refunded) as "refunded", sum(free) as "free", sum(completed_fen) as "gmv", sum(refund_fen) as "refundAmount",
          sum(fee_fen) as "fee", sum(income_fen) as "income"
        from (${sideRows('seller', r)}) s where user_id <> 0 group by user_id having sum(orders) <> 0`
    case 'withdrawals':
      return sql`select user_id, count(*) as "count", count(*) filter (where status = 'Completed') as "completed",
          count(*) filter (where status = 'Pending') as "pending", count(*) filter (where status = 'Failed') as "failed",
          sum(amount_fen) as "amount", coalesce(sum(actual_fen) filter (where status = 'Completed'), 0) as "paid",
          coalesce(sum(fee_fen) filter (where status = 'Completed'), 0) as "fee"
        from withdrawals where ${instants} group by user_id`
    case 'comprehensive':
      // Completed only, on every side; a user whose figures are all zero (only unpaid orders) is left out.
      return sql`select user_id, sum(bought) as "bought", sum(spent) as "spent", sum(sold) as "sold", sum(gmv) as "gmv",
          sum(income) as "income", sum(withdrawn) as "withdrawn"
        from (
          select user_id, completed as bought, completed_fen as spent, 0 as sold, 0 as gmv, 0 as income, 0 as withdrawn
            from (${sideRows('buyer', r)}) b
          union all
          select user_id, 0, 0, completed, completed_fen, income_fen, 0
            from (${sideRows('seller', r)}) s where user_id <> 0
          union all
          select user_id, 0, 0, 0, 0, 0, amount_fen from withdrawals where status = 'Completed' and ${instants}
        ) x
        group by user_id
        having sum(bought) <> 0 or sum(spent) <> 0 or sum(sold) <> 0 or sum(gmv) <> 0 or sum(income) <> 0 or sum(withdrawn) <> 0`
  }
}

export type TabPage<T extends StatisticsTab> = { rows: (Sums<T> & { userId: number; username: string })[]; total: number; totals: Sums<T> }

/**
 * One page of a tab, sorted by a figure (ties by user id, so pages never overlap), with the number of
 * users and the range's totals — in one statement: the per-user rows are summed once and the window
 * aggregates total them before the page is cut.
 */
export async function tabPage<T extends StatisticsTab>(
  db: Database,
  tab: T,
  r: Range,
  q: { sort: FigureName<T>; order: 'asc' | 'desc'; pageNum: number; pageSize: number },
): Promise<TabPage<T>> {
  const names = Object.keys(TAB_FIGURES[tab]) as FigureName<T>[]
  // Column names come from TAB_FIGURES (code, not input); the sort is one of them (sortColumn).
  const ident = (n: string) => sql.raw(`"${n}"`)
  const windowed = sql.join(
    names.map((n) => sql`sum(a.${ident(n)}) over () as ${sql.raw(`"t_${n}"`)}`),
    sql`, `,
  )
  const dir = sql.raw(q.order === 'asc' ? 'asc' : 'desc')
  // The user names are joined to the page's rows only, after the cut.
  const result = await db.execute(sql`
    with a as (${perUser(tab, r)}),
    p as (
      select a.*, count(*) over () as "t_total", ${windowed}
      from a
      order by a.${ident(q.sort)} ${dir}, a.user_id asc
      limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}
    )
    select p.*, u.user_name as "username"
    from p left join users u on u.id = p.user_id
    order by p.${ident(q.sort)} ${dir}, p.user_id asc`)
  const rows = rowsOf(result)
  const figures = (row: Row, prefix = '') => Object.fromEntries(names.map((n) => [n, num(row[`${prefix}${n}`])])) as Sums<T>
  if (rows.length > 0) {
    const first = rows[0]!
    return {
      rows: rows.map((row) => ({ ...figures(row), userId: num(row.user_id), username: String(row.username ?? '') })),
      total: num(first.t_total),
      totals: figures(first, 't_'),
    }
  }
  // Past the last page (or nothing in the range): the count and totals alone.
  const sums = sql.join(
    names.map((n) => sql`coalesce(sum(a.${ident(n)}), 0) as ${ident(n)}`),
    sql`, `,
  )
  const [t] = rowsOf(await db.execute(sql`with a as (${perUser(tab, r)}) select count(*) as "t_total", ${sums} from a`))
  return { rows: [], total: num(t?.t_total), totals: figures(t ?? {}) }
}

/** The shares of some sellers now: not deleted, their visits and purchases. */
export async function sellerShares(db: Database, sellerIds: number[]): Promise<Map<number, { shares: number; visits: number; purchases: number }>> {
  const out = new Map<number, { shares: number; visits: number; purchases: number }>()
  if (sellerIds.length === 0) return out
  const result = await db.execute(sql`
    select user_id, count(*) as shares, coalesce(sum(visit_count), 0) as visits, coalesce(sum(purchase_count), 0) as purchases
    from shares where user_id in (${sql.join(sellerIds.map((id) => sql`${id}`), sql`, `)}) and deleted_at is null
    group by user_id`)
  for (const row of rowsOf(result)) out.set(num(row.user_id), { shares: num(row.shares), visits: num(row.visits), purchases: num(row.purchases) })
  return out
}

export type DayRow = { day: string; orders: number; gmvFen: number; refunded: number; newUsers: number }

/** The platform per day of the range (stored days only): Completed orders and their amount, refunds, new users. */
export async function platformDays(db: Database, r: Range): Promise<DayRow[]> {
  const result = await db.execute(sql`
    with o as (
      select day, sum(completed) as orders, sum(completed_fen) as gmv, sum(refunded) as refunded
      from order_daily_stats where side = 'platform' and day >= ${r.from} and day <= ${r.to} group by day
    ), u as (
      select to_char((created_at at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD') as day, count(*) as n
      from users where created_at >= ${dayStart(r.from).toISOString()}::timestamptz and created_at < ${rangeEnd(r.to).toISOString()}::timestamptz
      group by 1
    )
    select coalesce(o.day, u.day) as day, o.orders, o.gmv, o.refunded, u.n
    from o full join u on u.day = o.day`)
  return rowsOf(result).map((row) => ({ day: String(row.day), orders: num(row.orders), gmvFen: num(row.gmv), refunded: num(row.refunded), newUsers: num(row.n) }))
}

export type ClusterSums = {
  gmvTodayFen: number
  ordersToday: number
  gmvMonthFen: number
  ordersMonth: number
  newUsersToday: number
  newUsersMonth: number
  activeSellers: number
  sharesUnderReview: number
  openReports: number
  pendingAppeals: number
  pendingWithdrawals: number
}

/**
 * The instrument cluster in one statement (one snapshot): the platform's rows of this month (8 a day),
 * the sellers' monthly rows, and the queue counts by their status indexes.
 */
export async function clusterSums(db: Database, cal: { today: string; monthStart: string }): Promise<ClusterSums> {
  const todayStart = dayStart(cal.today).toISOString()
  const monthStart = dayStart(cal.monthStart).toISOString()
  const tomorrow = rangeEnd(cal.today).toISOString()
  const result = await db.execute(sql`
    with m as (
      select day, completed, completed_fen from order_daily_stats
      where side = 'platform' and day >= ${cal.monthStart} and day <= ${cal.today}
    )
    select
      (select coalesce(sum(completed_fen), 0) from m where day = ${cal.today}) as "gmvTodayFen",
      (select coalesce(sum(completed), 0) from m where day = ${cal.today}) as "ordersToday",
      (select coalesce(sum(completed_fen), 0) from m) as "gmvMonthFen",
      (select coalesce(sum(completed), 0) from m) as "ordersMonth",
      (select count(*) from order_daily_stats
        where side = 'seller_month' and day = ${cal.monthStart.slice(0, 7)} and user_id <> 0 and completed > 0) as "activeSellers",
      (select count(*) from users where created_at >= ${todayStart}::timestamptz and created_at < ${tomorrow}::timestamptz) as "newUsersToday",
      (select count(*) from users where created_at >= ${monthStart}::timestamptz and created_at < ${tomorrow}::timestamptz) as "newUsersMonth",
      (select count(*) from shares where status = 'under_review' and deleted_at is null) as "sharesUnderReview",
      (select count(*) from reports where status = 'processing') as "openReports",
      (select count(*) from appeals where status = 'pending') as "pendingAppeals",
      (select count(*) from withdrawals where status = 'Pending') as "pendingWithdrawals"`)
  const row = rowsOf(result)[0] ?? {}
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, num(v)])) as ClusterSums
}
