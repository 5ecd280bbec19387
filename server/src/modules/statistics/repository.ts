import { type SQL, sql } from 'drizzle-orm'
import { dayStart } from '#contract/days.ts'
import { rangeEnd, type StatisticsTab } from '#contract/statistics.ts'
import type { Database, Tx } from '../../db/client.ts'
import { type Range, rangePlan, TAB_FIGURES } from './rules.ts'

type Row = Record<string, unknown>
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows
/** int8 sums arrive as strings (pg) or numbers (PGlite); they stay far below 2^53. */
const num = (v: unknown) => Number(v ?? 0)

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

/** Where a side's rows come from: the aggregate over a range (`sideRows`), or log rows (`loggedRows`). */
type Source = (side: 'seller' | 'buyer') => SQL

/** The log rows after `after` up to `upTo` of the range's days, as one side's rows (what they added). */
function loggedRows(r: Range, after: number, upTo: number): Source {
  const cols = sql.raw(COLUMNS.join(', '))
  return (side) =>
    side === 'seller'
      ? sql`select seller_id as user_id, ${cols} from order_stats_log where id > ${after} and id <= ${upTo} and day >= ${r.from} and day <= ${r.to}`
      : sql`select buyer_id as user_id, ${cols} from order_stats_log where id > ${after} and id <= ${upTo} and day >= ${r.from} and day <= ${r.to} and buyer_id is not null`
}

/**
 * Per user, one row of a tab's figures over the range: `user_id` and one column per figure (named as
 * the figure). Read from `order_daily_stats` (by its primary key's day range) or the log rows `from`
 * gives and, for withdrawals, from `withdrawals` by `withdrawals_created_idx` — never a scan of all
 * orders (decision 073). `deltas`: what was added, so users whose sums are zero stay.
 */
function perUser(tab: StatisticsTab, r: Range, from: Source = (side) => sideRows(side, r), deltas = false): SQL {
  // Deltas keep every user they touch (a refund adds 0 orders but moves one from completed to refunded).
  const having = (cond: SQL) => (deltas ? sql`` : sql`having ${cond}`)
  const instants = sql`created_at >= ${dayStart(r.from).toISOString()}::timestamptz and created_at < ${rangeEnd(r.to).toISOString()}::timestamptz`
  switch (tab) {
    case 'orders':
      return sql`select user_id, sum(orders) as "orders", sum(completed) as "completed", sum(pending) as "pending", sum(failed) as "failed",
          sum(refunded) as "refunded", sum(completed_fen) as "amount", sum(refund_fen) as "refundAmount"
        from (${from('buyer')}) s group by user_id ${having(sql`sum(orders) <> 0`)}`
    case 'sellers':
      // user_id 0 holds the platform's own products (channels, packages): not a seller.
      return sql`select user_id, sum(orders) as "orders", sum(completed) as "completed", sum(pending) as "pending", sum(failed) as "failed",
          sum(refunded) as "refunded", sum(free) as "free", sum(completed_fen) as "gmv", sum(refund_fen) as "refundAmount",
          sum(fee_fen) as "fee", sum(income_fen) as "income"
        from (${from('seller')}) s where user_id <> 0 group by user_id ${having(sql`sum(orders) <> 0`)}`
    case 'withdrawals':
      return sql`select user_id, count(*) as "count", count(*) filter (where status = 'Completed') as "completed",
          count(*) filter (where status = 'Pending') as "pending", count(*) filter (where status = 'Failed') as "failed",
          sum(amount_fen) as "amount", coalesce(sum(actual_fen) filter (where status = 'Completed'), 0) as "paid",
          coalesce(sum(fee_fen) filter (where status = 'Completed'), 0) as "fee"
        from withdrawals where ${instants} group by user_id`
    case 'comprehensive':
      // Completed only, on every side; a user whose figures are all zero (only unpaid orders) is left
      // out. The withdrawals are summed apart (`completedWithdrawals`): they have no `changes` to keep
      // their past days by (decision 101).
      return sql`select user_id, sum(bought) as "bought", sum(spent) as "spent", sum(sold) as "sold", sum(gmv) as "gmv",
          sum(income) as "income", 0 as "withdrawn"
        from (
          select user_id, completed as bought, completed_fen as spent, 0 as sold, 0 as gmv, 0 as income
            from (${from('buyer')}) b
          union all
          select user_id, 0, 0, completed, completed_fen, income_fen
            from (${from('seller')}) s where user_id <> 0
        ) x
        group by user_id
        ${having(sql`sum(bought) <> 0 or sum(spent) <> 0 or sum(sold) <> 0 or sum(gmv) <> 0 or sum(income) <> 0`)}`
  }
}

/**
 * Per user, a tab's figures over the range (in `TAB_FIGURES` order), users with none left out; for the
 * comprehensive tab, without the withdrawals (`completedWithdrawals`).
 */
export async function userFigures(tx: Tx, tab: StatisticsTab, r: Range): Promise<Map<number, number[]>> {
  return figuresBy(tx, tab, perUser(tab, r))
}

/** Per user, what the orders of the range's days add to a tab's figures (every user they touch, zeros too). */
export async function dayFigures(tx: Tx, tab: StatisticsTab, r: Range): Promise<Map<number, number[]>> {
  return figuresBy(tx, tab, perUser(tab, r, undefined, true))
}

/** Per user, what the log rows after `after` up to `upTo` of the range's days added to a tab's figures. */
export async function loggedFigures(tx: Tx, tab: StatisticsTab, r: Range, after: number, upTo: number): Promise<Map<number, number[]>> {
  return figuresBy(tx, tab, perUser(tab, r, loggedRows(r, after, upTo), true))
}

async function figuresBy(tx: Tx, tab: StatisticsTab, perUserSql: SQL): Promise<Map<number, number[]>> {
  // One JSON text of [user_id, figure, …] arrays: a year is ~100,000 users, which as rows the driver
  // would parse value by value (several times slower than JSON.parse of one text).
  const cells = sql.raw(['a.user_id', ...Object.keys(TAB_FIGURES[tab]).map((n) => `a."${n}"`)].join(', '))
  const [row] = rowsOf(await tx.execute(sql`select coalesce(json_agg(json_build_array(${cells})), '[]')::text as j from (${perUserSql}) a`))
  return new Map((JSON.parse(String(row?.j ?? '[]')) as number[][]).map(([userId, ...figures]) => [userId!, figures]))
}

/**
 * The version of some days' orders — the sum of `changes` over their platform rows, which grows by one
 * with each log row of those days (decision 101) — and the last log row now.
 */
export async function daysVersion(tx: Tx, r: Range): Promise<{ version: number; logId: number }> {
  const [row] = rowsOf(
    await tx.execute(sql`select
      (select coalesce(sum(changes), 0) from order_daily_stats where side = 'platform' and day >= ${r.from} and day <= ${r.to}) as v,
      (select coalesce(max(id), 0) from order_stats_log) as l`),
  )
  return { version: num(row?.v), logId: num(row?.l) }
}

/**
 * The version of each of some blocks of days (the sum of `changes` over their platform rows, as
 * `daysVersion`; a block without a row is 0), in order, and the last log row now — one statement
 * (decision 144).
 */
export async function blockVersions(tx: Tx, blocks: Range[]): Promise<{ versions: number[]; logId: number }> {
  const list = sql.join(
    blocks.map((b, i) => sql`(${i}::int, ${b.from}::text, ${b.to}::text)`),
    sql`, `,
  )
  const result = await tx.execute(sql`select b.i, (select coalesce(sum(changes), 0) from order_daily_stats
        where side = 'platform' and day >= b.f and day <= b.t) as v, (select coalesce(max(id), 0) from order_stats_log) as l
      from (values ${list}) as b(i, f, t)`)
  const versions = new Array<number>(blocks.length).fill(0)
  let logId = 0
  for (const row of rowsOf(result)) {
    versions[num(row.i)] = num(row.v)
    logId = num(row.l)
  }
  return { versions, logId }
}

/** How many log rows after `after` up to `upTo` are of the range's days. */
export async function loggedCount(tx: Tx, r: Range, after: number, upTo: number): Promise<number> {
  const [row] = rowsOf(await tx.execute(sql`select count(*) as n from order_stats_log where id > ${after} and id <= ${upTo} and day >= ${r.from} and day <= ${r.to}`))
  return num(row?.n)
}

/** The log rows older than a day: the cache of an API idle longer than that sums its past days again. */
export async function pruneStatisticsLog(db: Database): Promise<void> {
  await db.execute(sql`delete from order_stats_log where created_at < now() - interval '1 day'`)
}

/** Per user, the amount of their withdrawals applied for in the range and paid out (Completed). */
export async function completedWithdrawals(tx: Tx, r: Range): Promise<Map<number, number>> {
  const result = await tx.execute(sql`
    select user_id, sum(amount_fen) as amount from withdrawals
    where status = 'Completed' and created_at >= ${dayStart(r.from).toISOString()}::timestamptz and created_at < ${rangeEnd(r.to).toISOString()}::timestamptz
    group by user_id`)
  return new Map(rowsOf(result).map((row) => [num(row.user_id), num(row.amount)]))
}

/** The user names of some ids. */
export async function userNames(db: Database, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const result = await db.execute(sql`select id, user_name from users where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)
  return new Map(rowsOf(result).map((row) => [num(row.id), String(row.user_name ?? '')]))
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
      -- Grouped by the instant a Shanghai day begins (date_bin from a Shanghai midnight), named after:
      -- one call per day, not per user, over users_created_idx alone (a year: 110 -> 21 ms at 100,000).
      select to_char((b at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD') as day, n
      from (
        select date_bin('1 day', created_at, '2000-01-01T00:00:00+08:00'::timestamptz) as b, count(*) as n
        from users where created_at >= ${dayStart(r.from).toISOString()}::timestamptz and created_at < ${rangeEnd(r.to).toISOString()}::timestamptz
        group by 1
      ) x
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
