import { addDays, shanghaiDay } from '#contract/days.ts'
import { rangeDays, resolveRange, STATISTICS_SORTS, type StatisticsTab } from '#contract/statistics.ts'
import type { Database, Tx } from '../../db/client.ts'
import { pageWindow } from '../../db/paging.ts'
import { cacheOf, monthCacheOf, type PastFigures, type StatisticsCache } from './cache.ts'
import { presentCluster, presentDay, presentFigures } from './presenter.ts'
import {
  clusterSums,
  completedWithdrawals,
  daysVersion,
  dayFigures,
  loggedCount,
  loggedFigures,
  blockVersions,
  platformDays,
  sellerShares,
  userFigures,
  userNames,
} from './repository.ts'
import {
  clusterCalendar,
  conversionRate,
  everyDay,
  type FigureName,
  blockPlan,
  keptBlocks,
  pageOfUsers,
  type Range,
  sortColumn,
  splitRange,
  type Sums,
  TAB_FIGURES,
  type UserTable,
} from './rules.ts'

type TabQuery = { from?: string | undefined; to?: string | undefined; sort: string; order: 'asc' | 'desc'; pageNum: number; pageSize: number }

/**
 * Every user's figures of a tab over the range, in one snapshot (a read-only repeatable-read
 * transaction), decision 101:
 * - the days before today come from the cache. When their version (the sum of their platform rows'
 *   `changes`) moved, the log rows written since are added — when their count is what the version
 *   moved by; else (rows pruned, or a change that committed out of id order) the days are summed again;
 * - today's (and later) orders, and the withdrawals, are read at every request and added.
 */
async function everyUser(db: Database, tab: StatisticsTab, range: Range, today: string): Promise<UserTable> {
  const width = Object.keys(TAB_FIGURES[tab]).length
  const { past, live } = splitRange(range, today)
  return db.transaction(
    async (tx) => {
      // The withdrawals tab reads one small table by its date index: nothing to keep.
      if (tab === 'withdrawals') return merged(null, await userFigures(tx, tab, range), width, tab)
      const kept = past ? await pastFigures(db, tx, tab, past, today) : null
      // What the live part adds, per user: today's (and later) orders, and the withdrawals.
      const added = live ? await userFigures(tx, tab, live) : new Map<number, number[]>()
      if (tab === 'comprehensive') {
        const withdrawn = Object.keys(TAB_FIGURES.comprehensive).indexOf('withdrawn')
        for (const [userId, fen] of await completedWithdrawals(tx, range)) {
          let f = added.get(userId)
          if (!f) added.set(userId, (f = new Array<number>(width).fill(0)))
          f[withdrawn]! += fen
        }
      }
      return merged(kept?.table ?? null, added, width, tab)
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

/**
 * A tab's per-user figures over past days, at the transaction's snapshot: from the cache, brought up to
 * date by the log; else from the same range a few days earlier (the default range, the day after),
 * brought up to date, less its first days and plus the new last ones; else summed whole. Kept for the
 * next request either way.
 */
async function pastFigures(db: Database, tx: Tx, tab: StatisticsTab, past: Range, today: string): Promise<PastFigures> {
  const width = Object.keys(TAB_FIGURES[tab]).length
  const cache = cacheOf(db)
  const now = await daysVersion(tx, past)
  let kept = await upToDate(tx, tab, past, cache.get(tab, past.from, past.to), now, cache.counts)
  for (let k = 1; !kept && k <= 7 && k < rangeDays(past.from, past.to); k++) {
    const earlier = { from: addDays(past.from, -k), to: addDays(past.to, -k) }
    const old = cache.get(tab, earlier.from, earlier.to)
    if (!old) continue
    const shifted = await upToDate(tx, tab, earlier, old, await daysVersion(tx, earlier), null)
    if (!shifted) continue
    const change = await dayFigures(tx, tab, { from: addDays(earlier.to, 1), to: past.to })
    for (const [userId, f] of await dayFigures(tx, tab, { from: earlier.from, to: addDays(past.from, -1) })) {
      const c = change.get(userId) ?? new Array<number>(width).fill(0)
      f.forEach((v, i) => (c[i]! -= v))
      change.set(userId, c)
    }
    kept = { ...now, table: merged(shifted.table, change, width, tab) }
    cache.counts.shifted++
  }
  if (!kept) {
    kept = { ...now, table: await byMonths(db, tx, tab, past, today) }
    cache.counts.summed++
  }
  cache.set(tab, past.from, past.to, kept)
  return kept
}

/**
 * A tab's per-user figures over past days not kept as a range (decision 144): the kept blocks of days
 * the range holds — whole months, and this month up to yesterday (`monthFigures`) — plus and minus a
 * few days read from the aggregate (`blockPlan`). A year is 12 kept blocks and a few days, where
 * summing it whole read ~13 aggregate rows per user.
 */
async function byMonths(db: Database, tx: Tx, tab: StatisticsTab, past: Range, today: string): Promise<UserTable> {
  const width = Object.keys(TAB_FIGURES[tab]).length
  const plan = blockPlan(past, addDays(today, -1))
  if (plan.blocks.length === 0) return merged(null, await userFigures(tx, tab, past), width, tab)
  const tables = await monthFigures(db, tx, tab, plan.blocks)
  for (const d of plan.plus) tables.push(tableOf(await dayFigures(tx, tab, d), width, 1))
  for (const d of plan.minus) tables.push(tableOf(await dayFigures(tx, tab, d), width, -1))
  return summed(tables, width, tab)
}

/** A per-user map as a table, each figure times `sign`. */
function tableOf(figures: Map<number, number[]>, width: number, sign: number): UserTable {
  const userIds = new Int32Array(figures.size)
  const flat = new Float64Array(figures.size * width)
  let n = 0
  for (const [id, f] of figures) {
    userIds[n] = id
    for (let k = 0; k < width; k++) flat[n * width + k] = sign * f[k]!
    n++
  }
  return { userIds, figures: flat, width }
}

/**
 * A tab's per-user figures of kept blocks of past days at the transaction's snapshot, each kept apart
 * (`monthCacheOf`), checked by its own version and brought up to date by the log as a range is
 * (`upToDate`), else summed from the aggregate; one statement gives every block's version.
 */
async function monthFigures(db: Database, tx: Tx, tab: StatisticsTab, blocks: Range[]): Promise<UserTable[]> {
  return (await keptBlockFigures(db, tx, tab, blocks)).map((k) => k.table)
}

async function keptBlockFigures(db: Database, tx: Tx, tab: StatisticsTab, blocks: Range[]): Promise<PastFigures[]> {
  const cache = monthCacheOf(db)
  if (tab === 'comprehensive') {
    // Made from the orders and sellers tabs' blocks at the same version (the same days' platform rows).
    const bought = await keptBlockFigures(db, tx, 'orders', blocks)
    const sold = await keptBlockFigures(db, tx, 'sellers', blocks)
    return blocks.map((b, i) => {
      const now = bought[i]!
      const kept = cache.get(tab, b.from, b.to)
      if (kept && kept.version === now.version) return kept
      const made = { version: now.version, logId: now.logId, table: comprehensiveBlock(now.table, sold[i]!.table) }
      cache.set(tab, b.from, b.to, made)
      return made
    })
  }
  const width = Object.keys(TAB_FIGURES[tab]).length
  const { versions, logId } = await blockVersions(tx, blocks)
  const out: PastFigures[] = []
  for (const [i, b] of blocks.entries()) {
    const now = { version: versions[i]!, logId }
    let kept = await upToDate(tx, tab, b, cache.get(tab, b.from, b.to), now, cache.counts)
    if (!kept) {
      kept = { ...now, table: merged(null, await userFigures(tx, tab, b), width, tab) }
      cache.counts.summed++
    }
    cache.set(tab, b.from, b.to, kept)
    out.push(kept)
  }
  return out
}

/**
 * A comprehensive block from the orders and sellers tabs' of the same days (the same aggregate rows: a
 * buyer's Completed orders and their amount, a seller's Completed sales, GMV and income; the withdrawals
 * are added live), so it is never summed from the aggregate; kept at their version.
 */
function comprehensiveBlock(bought: UserTable, sold: UserTable): UserTable {
  const width = Object.keys(TAB_FIGURES.comprehensive).length
  const at = (tab: StatisticsTab, name: string) => Object.keys(TAB_FIGURES[tab]).indexOf(name)
  const spread = (t: UserTable, from: number[], to: number[]): UserTable => {
    const figures = new Float64Array(t.userIds.length * width)
    for (let i = 0; i < t.userIds.length; i++) for (let k = 0; k < from.length; k++) figures[i * width + to[k]!] = t.figures[i * t.width + from[k]!]!
    return { userIds: t.userIds, figures, width }
  }
  const c = (name: string) => at('comprehensive', name)
  return summed(
    [
      spread(bought, [at('orders', 'completed'), at('orders', 'amount')], [c('bought'), c('spent')]),
      spread(sold, [at('sellers', 'completed'), at('sellers', 'gmv'), at('sellers', 'income')], [c('sold'), c('gmv'), c('income')]),
    ],
    width,
    'comprehensive',
  )
}

/** The sum of per-user tables (users in several add up), users with none left out as `merged` does. */
function summed(tables: UserTable[], width: number, tab: StatisticsTab): UserTable {
  const cap = tables.reduce((n, t) => n + t.userIds.length, 0)
  let maxId = 0
  for (const t of tables) for (let i = 0; i < t.userIds.length; i++) if (t.userIds[i]! > maxId) maxId = t.userIds[i]!
  // User ids are a sequence: a dense index by id (a Map past ten million of them).
  const dense = maxId < 10_000_000 ? new Int32Array(maxId + 1).fill(-1) : null
  const sparse = new Map<number, number>()
  const userIds = new Int32Array(cap)
  const figures = new Float64Array(cap * width)
  let n = 0
  for (const t of tables)
    for (let i = 0; i < t.userIds.length; i++) {
      const id = t.userIds[i]!
      let at = dense ? dense[id]! : (sparse.get(id) ?? -1)
      if (at < 0) {
        at = n++
        userIds[at] = id
        if (dense) dense[id] = at
        else sparse.set(id, at)
      }
      for (let k = 0; k < width; k++) figures[at * width + k]! += t.figures[i * width + k]!
    }
  return merged({ userIds: userIds.subarray(0, n), figures: figures.subarray(0, n * width), width }, new Map(), width, tab)
}

/**
 * Kept figures at the snapshot's version: as they are when the version did not move; plus the log rows
 * written since when their count is what it moved by; else null (rows pruned, a change committed out of
 * id order, a rebuild).
 */
async function upToDate(
  tx: Tx,
  tab: StatisticsTab,
  r: Range,
  kept: PastFigures | undefined,
  now: { version: number; logId: number },
  counts: StatisticsCache['counts'] | null,
): Promise<PastFigures | null> {
  if (!kept) return null
  if (kept.version === now.version) {
    if (counts) counts.kept++
    return { ...kept, logId: now.logId }
  }
  if (kept.version + (await loggedCount(tx, r, kept.logId, now.logId)) !== now.version) return null
  if (counts) counts.caughtUp++
  return { ...now, table: merged(kept.table, await loggedFigures(tx, tab, r, kept.logId, now.logId), kept.table.width, tab) }
}

/**
 * Figures plus what is added to them, per user (`added` loses the users it shares with `base`). As in
 * the SQL, a user with no order (orders, sellers) or with all zeros (comprehensive, withdrawals) is left
 * out.
 */
function merged(base: UserTable | null, added: Map<number, number[]>, width: number, tab: StatisticsTab): UserTable {
  const orders = Object.keys(TAB_FIGURES[tab]).indexOf('orders')
  const shown = (f: Float64Array, at: number) => {
    if (orders >= 0) return f[at + orders] !== 0
    for (let k = 0; k < width; k++) if (f[at + k] !== 0) return true
    return false
  }
  const baseCount = base?.userIds.length ?? 0
  const userIds = new Int32Array(baseCount + added.size)
  const figures = new Float64Array((baseCount + added.size) * width)
  let n = 0
  for (let i = 0; i < baseCount; i++) {
    const id = base!.userIds[i]!
    for (let k = 0; k < width; k++) figures[n * width + k] = base!.figures[i * width + k]!
    const more = added.get(id)
    if (more) {
      for (let k = 0; k < width; k++) figures[n * width + k]! += more[k]!
      added.delete(id)
    }
    userIds[n] = id
    if (shown(figures, n * width)) n++
  }
  for (const [id, f] of added) {
    figures.set(f, n * width)
    userIds[n] = id
    if (shown(figures, n * width)) n++
  }
  return { userIds: userIds.subarray(0, n), figures: figures.subarray(0, n * width), width }
}

/** One page of a tab over the range, sorted by a figure, with the number of users and the range's totals. */
async function tabPage<T extends StatisticsTab>(
  db: Database,
  tab: T,
  range: Range,
  today: string,
  q: { sort: FigureName<T>; order: 'asc' | 'desc'; pageNum: number; pageSize: number },
) {
  const names = Object.keys(TAB_FIGURES[tab]) as FigureName<T>[]
  const p = pageOfUsers(await everyUser(db, tab, range, today), names.indexOf(q.sort), q.order, pageWindow(q).offset, q.pageSize)
  const named = await userNames(
    db,
    p.rows.map((r) => r.userId),
  )
  const sums = (figures: ArrayLike<number>) => Object.fromEntries(names.map((n, i) => [n, figures[i]])) as Sums<T>
  return {
    rows: p.rows.map((r) => ({ ...sums(r.figures), userId: r.userId, username: named.get(r.userId) ?? '' })),
    total: p.total,
    totals: sums(p.totals),
  }
}

/** One page of a tab over the range (default: the last 30 days up to today at the app's clock). */
async function page<T extends StatisticsTab>(db: Database, tab: T, q: TabQuery, now: Date) {
  const today = shanghaiDay(now)
  const range = resolveRange(q, today)
  const p = await tabPage(db, tab, range, today, { sort: sortColumn(tab, q.sort) as FigureName<T>, order: q.order, pageNum: q.pageNum, pageSize: q.pageSize })
  return {
    range,
    page: p,
    base: { ...range, total: p.total, pageNum: q.pageNum, pageSize: q.pageSize, totals: presentFigures(tab, p.totals) },
    list: p.rows.map(({ userId, username, ...sums }) => ({ userId, username, ...presentFigures(tab, sums as never) })),
  }
}

export async function ordersStatistics(db: Database, q: TabQuery, now: Date) {
  const { base, list } = await page(db, 'orders', q, now)
  return { ...base, list }
}

export async function withdrawalStatistics(db: Database, q: TabQuery, now: Date) {
  const { base, list } = await page(db, 'withdrawals', q, now)
  return { ...base, list }
}

/** Sellers, with their shares, visits and conversion rate now (not bound to the range). */
export async function sellerStatistics(db: Database, q: TabQuery, now: Date) {
  const { base, list } = await page(db, 'sellers', q, now)
  const shares = await sellerShares(
    db,
    list.map((r) => r.userId),
  )
  return {
    ...base,
    list: list.map((r) => {
      const s = shares.get(r.userId) ?? { shares: 0, visits: 0, purchases: 0 }
      return { ...r, ...s, conversionRate: conversionRate(s.purchases, s.visits) }
    }),
  }
}

/** Per user on every side, and the platform's days of the range (every day present, zeros included). */
export async function comprehensiveStatistics(db: Database, q: TabQuery, now: Date) {
  const { base, list, range } = await page(db, 'comprehensive', q, now)
  const stored = new Map((await platformDays(db, range)).map((d) => [d.day, d]))
  const daily = everyDay(range.from, range.to).map((day) => presentDay(stored.get(day) ?? { day, orders: 0, gmvFen: 0, refunded: 0, newUsers: 0 }))
  return { ...base, list, daily }
}

/**
 * The default range (the last 30 days) of each tab kept up to date ahead of the admins: at the start,
 * then each minute (the kept sums' check costs a few ms; after a day or a pruned log it sums again, or
 * moves yesterday's range by a day), so the statistics page opens without summing (decision 101).
 */
export async function keepDefaultRanges(db: Database, now: Date) {
  for (const tab of ['comprehensive', 'orders', 'sellers'] as const)
    await page(db, tab, { sort: STATISTICS_SORTS[tab][0], order: 'desc', pageNum: 1, pageSize: 20 }, now)
  // Then the blocks of the last year (its whole months, this month up to yesterday), so that any other
  // range sums kept blocks and a few days (decision 144).
  const blocks = keptBlocks(shanghaiDay(now))
  if (blocks.length === 0) return
  // (The comprehensive tab's blocks are made from the other two's.)
  for (const tab of ['orders', 'sellers', 'comprehensive'] as const)
    await db.transaction((tx) => monthFigures(db, tx, tab, blocks), { isolationLevel: 'repeatable read', accessMode: 'read only' })
}

export async function cluster(db: Database, now: Date) {
  const cal = clusterCalendar(now)
  return presentCluster(cal.today, await clusterSums(db, cal))
}
