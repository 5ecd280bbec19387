import type { StatisticsTab } from '#contract/statistics.ts'
import { spreadsheetCsv } from '#app/.server/csv.ts'
import { type Column, formatRate, STATISTICS_COLUMNS } from './columns.ts'

type Row = Record<string, number | string | null>

/** A figure as a spreadsheet reads it: counts as digits, yuan with two decimals, a rate as a percentage. */
function value(c: Column, v: unknown): string {
  // Plain digits (no ¥), so the spreadsheet takes the cell as a number; API amounts have ≤ 2 decimals.
  if (c.kind === 'yuan') return Number(v ?? 0).toFixed(2)
  if (c.kind === 'rate') return v === null || v === undefined ? '' : formatRate(v as number)
  return String(v ?? 0)
}

/**
 * The CSV writer of a tab (decision 075): a Node stream of UTF-8 text starting with a byte-order mark
 * (so spreadsheet programs read Chinese as Chinese), no cell a spreadsheet would run as a formula
 * (decision 107), the header row from `label`, then one record per
 * `write(row)`. The totals row has no shares, visits or rate (they are not sums over the range): blank.
 */
export function statisticsCsv(tab: StatisticsTab, label: (key: string) => string) {
  const columns = STATISTICS_COLUMNS[tab]
  const stream = spreadsheetCsv({
    header: true,
    columns: [
      { key: 'username', header: label('user') },
      { key: 'userId', header: label('userId') },
      ...columns.map((c) => ({ key: c.key, header: label(`${tab}.${c.key}`) })),
    ],
  })
  const record = (r: Row) => ({ username: r.username, userId: r.userId, ...Object.fromEntries(columns.map((c) => [c.key, c.now && !(c.key in r) ? '' : value(c, r[c.key])])) })
  return {
    stream,
    /** Writes a row; resolves when the stream can take more (so a large export is not held in memory). */
    write: (r: Row) => (stream.write(record(r)) ? Promise.resolve() : new Promise<void>((resolve) => stream.once('drain', () => resolve()))),
  }
}
