import { shanghaiDay } from '#contract/days.ts'
import { resolveRange, type StatisticsTab } from '#contract/statistics.ts'
import type { Database } from '../../db/client.ts'
import { presentCluster, presentDay, presentFigures } from './presenter.ts'
import { clusterSums, platformDays, sellerShares, tabPage } from './repository.ts'
import { clusterCalendar, conversionRate, everyDay, type FigureName, sortColumn } from './rules.ts'

type TabQuery = { from?: string | undefined; to?: string | undefined; sort: string; order: 'asc' | 'desc'; pageNum: number; pageSize: number }

/** One page of a tab over the range (default: the last 30 days up to today at the app's clock). */
async function page<T extends StatisticsTab>(db: Database, tab: T, q: TabQuery, now: Date) {
  const range = resolveRange(q, shanghaiDay(now))
  const p = await tabPage(db, tab, range, { sort: sortColumn(tab, q.sort) as FigureName<T>, order: q.order, pageNum: q.pageNum, pageSize: q.pageSize })
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

export async function cluster(db: Database, now: Date) {
  const cal = clusterCalendar(now)
  return presentCluster(cal.today, await clusterSums(db, cal))
}
