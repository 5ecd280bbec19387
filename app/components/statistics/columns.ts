import { parseDateInput } from '#app/utils/format.ts'
import { STATISTICS_SORTS, STATISTICS_TABS, type StatisticsTab } from '#contract/statistics.ts'

/** How a column's value is shown: a count, yuan, or a rate (0–1 as a percentage). */
type ColumnKind = 'count' | 'yuan' | 'rate'
export type Column = { key: string; kind: ColumnKind; sortable: boolean; /** Not bound to the date range (the seller's shares now). */ now?: boolean }

const col = (tab: StatisticsTab, key: string, kind: ColumnKind, now = false): Column => ({
  key,
  kind,
  sortable: (STATISTICS_SORTS[tab] as readonly string[]).includes(key),
  ...(now ? { now } : {}),
})

/**
 * The figure columns of each tab in table (and CSV) order, after the user. Labels are
 * `statistics.col.<tab>.<key>` in the catalogs.
 */
export const STATISTICS_COLUMNS: Record<StatisticsTab, Column[]> = {
  comprehensive: [
    col('comprehensive', 'bought', 'count'),
    col('comprehensive', 'spent', 'yuan'),
    col('comprehensive', 'sold', 'count'),
    col('comprehensive', 'gmv', 'yuan'),
    col('comprehensive', 'income', 'yuan'),
    col('comprehensive', 'withdrawn', 'yuan'),
  ],
  orders: [
    col('orders', 'orders', 'count'),
    col('orders', 'completed', 'count'),
    col('orders', 'pending', 'count'),
    col('orders', 'failed', 'count'),
    col('orders', 'refunded', 'count'),
    col('orders', 'amount', 'yuan'),
    col('orders', 'refundAmount', 'yuan'),
  ],
  sellers: [
    col('sellers', 'orders', 'count'),
    col('sellers', 'completed', 'count'),
    col('sellers', 'pending', 'count'),
    col('sellers', 'failed', 'count'),
    col('sellers', 'refunded', 'count'),
    col('sellers', 'free', 'count'),
    col('sellers', 'gmv', 'yuan'),
    col('sellers', 'refundAmount', 'yuan'),
    col('sellers', 'fee', 'yuan'),
    col('sellers', 'income', 'yuan'),
    col('sellers', 'shares', 'count', true),
    col('sellers', 'visits', 'count', true),
    col('sellers', 'conversionRate', 'rate', true),
  ],
  withdrawals: [
    col('withdrawals', 'count', 'count'),
    col('withdrawals', 'completed', 'count'),
    col('withdrawals', 'pending', 'count'),
    col('withdrawals', 'failed', 'count'),
    col('withdrawals', 'amount', 'yuan'),
    col('withdrawals', 'paid', 'yuan'),
    col('withdrawals', 'fee', 'yuan'),
  ],
}

/** The column a tab's chart draws: its default sort (the figure the table leads with). */
export const chartColumn = (tab: StatisticsTab) => STATISTICS_SORTS[tab][0]

/** A rate as a percentage with up to two decimals ("12.5%"), a dash without one. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—'
  return `${Math.round(rate * 10000) / 100}%`
}

/** The URL's state: tab, range, sort, order, page. A malformed sort, order or page is dropped; a bad range is shown at its field. */
export function readStatisticsParams(url: URL) {
  const p = url.searchParams
  const tabParam = p.get('tab')
  const tab: StatisticsTab = (STATISTICS_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as StatisticsTab) : 'comprehensive'
  const sorts = STATISTICS_SORTS[tab] as readonly string[]
  const sort = sorts.includes(p.get('sort') ?? '') ? p.get('sort')! : sorts[0]!
  const order = p.get('order') === 'asc' ? 'asc' : 'desc'
  const pageNum = Math.max(1, Math.min(100000, Number.parseInt(p.get('pageNum') ?? '1', 10) || 1))
  // As typed into the DateFields (`2026/1/5` is `2026-01-05`); anything else is refused by the range schema.
  const date = (v: string | null) => (v?.trim() ? (parseDateInput(v) ?? v.trim()) : undefined)
  const from = date(p.get('from'))
  const to = date(p.get('to'))
  return { tab, sort, order, pageNum, from, to } as const
}
export type StatisticsParams = ReturnType<typeof readStatisticsParams>
