import { addDays, monthStartDay, shanghaiDay } from '#contract/days.ts'
import { STATISTICS_SORTS, type StatisticsTab } from '#contract/statistics.ts'

/** How a figure is kept: a count, or fen (shown in yuan). */
type Kind = 'count' | 'fen'

/**
 * The figures of each tab, in column order, and what each is. The sort keys of the contract are a
 * subset (every figure here is sortable except none), checked by the rules test.
 */
export const TAB_FIGURES = {
  comprehensive: { bought: 'count', spent: 'fen', sold: 'count', gmv: 'fen', income: 'fen', withdrawn: 'fen' },
  orders: { orders: 'count', completed: 'count', pending: 'count', failed: 'count', refunded: 'count', amount: 'fen', refundAmount: 'fen' },
  sellers: {
    orders: 'count',
    completed: 'count',
    pending: 'count',
    failed: 'count',
    refunded: 'count',
    free: 'count',
    gmv: 'fen',
    refundAmount: 'fen',
    fee: 'fen',
    income: 'fen',
  },
  withdrawals: { count: 'count', completed: 'count', pending: 'count', failed: 'count', amount: 'fen', paid: 'fen', fee: 'fen' },
} as const satisfies Record<StatisticsTab, Record<string, Kind>>

export type FigureName<T extends StatisticsTab> = keyof (typeof TAB_FIGURES)[T] & string
export type Sums<T extends StatisticsTab> = Record<FigureName<T>, number>

/** A day range, yyyy-MM-dd (Asia/Shanghai), both ends counted. */
export type Range = { from: string; to: string }

/**
 * The days of a range before today, whose per-user sums the statistics cache keeps while their orders
 * do not change, and the days from today on, read at every request (today's orders change all day;
 * decision 101). Either may be empty (null).
 */
export function splitRange(r: Range, today: string): { past: Range | null; live: Range | null } {
  const yesterday = addDays(today, -1)
  return {
    past: r.from <= yesterday ? { from: r.from, to: r.to < yesterday ? r.to : yesterday } : null,
    live: r.to >= today ? { from: r.from > today ? r.from : today, to: r.to } : null,
  }
}

/** Users and their figures, flat: user `i` is `userIds[i]`, its figures `figures[i * width …]` in `TAB_FIGURES` order. */
export type UserTable = { userIds: ArrayLike<number>; figures: ArrayLike<number>; width: number }

/** Above this many rows before the page's end, the rows are sorted whole rather than selected. */
const SELECT_LIMIT = 2000

/**
 * One page of users sorted by one figure (`sortAt`, its index), ties by user id so pages never overlap,
 * with the number of users and the totals of every figure. The rows are read once: a page near the top
 * (the usual) keeps only the best `offset + size` as it goes — about 1 ms over 100,000 users, where
 * sorting them all takes 40.
 */
export function pageOfUsers(t: UserTable, sortAt: number, order: 'asc' | 'desc', offset: number, size: number) {
  const { userIds, figures, width } = t
  const sign = order === 'asc' ? 1 : -1
  const before = (a: number, b: number) => {
    const d = (figures[a * width + sortAt]! - figures[b * width + sortAt]!) * sign
    return d < 0 || (d === 0 && userIds[a]! < userIds[b]!)
  }
  const total = userIds.length
  const end = offset + size
  const totals = new Array<number>(width).fill(0)
  for (let i = 0; i < total * width; i++) totals[i % width]! += figures[i]!
  let kept: number[] = []
  if (end > SELECT_LIMIT) kept = Array.from({ length: total }, (_, i) => i).sort((a, b) => (before(a, b) ? -1 : 1))
  else {
    for (let i = 0; i < total; i++) {
      if (kept.length === end && !before(i, kept[end - 1]!)) continue
      // Insert in order, dropping the last when the buffer is full.
      let j = kept.length < end ? kept.length : end - 1
      while (j > 0 && before(i, kept[j - 1]!)) {
        kept[j] = kept[j - 1]!
        j--
      }
      kept[j] = i
    }
  }
  const rows = kept.slice(offset, end).map((i) => ({ userId: userIds[i]!, figures: Array.from({ length: width }, (_, k) => figures[i * width + k]!) }))
  return { rows, total, totals }
}

/** The sortable columns of a tab are figures of it (`pageOfUsers` sorts by the figure of that name). */
export function sortColumn<T extends StatisticsTab>(tab: T, sort: string): FigureName<T> {
  if (!(STATISTICS_SORTS[tab] as readonly string[]).includes(sort)) throw new Error(`not a sort of ${tab}: ${sort}`)
  return sort as FigureName<T>
}

/** purchases / visits, null without visits (a share nobody opened has no rate, not 0 %). */
export function conversionRate(purchases: number, visits: number): number | null {
  if (visits <= 0) return null
  return Math.round((purchases / visits) * 10000) / 10000
}

/** Every day from `from` to `to` (inclusive), oldest first. */
export function everyDay(from: string, to: string): string[] {
  const days: string[] = []
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d)
  return days
}

/** The cluster's calendar at `now`: today and the first day of this month (Asia/Shanghai). */
export function clusterCalendar(now: Date): { today: string; monthStart: string } {
  return { today: shanghaiDay(now), monthStart: monthStartDay(now) }
}

/** A range read from the aggregate: whole months (monthly rows), days added, and days taken away. */
export type RangePlan = { months: string[]; days: { from: string; to: string }[]; minusDays: { from: string; to: string }[] }

/**
 * How to sum a day range with the fewest aggregate rows (decision 074). Each month the range touches
 * is read either as its days in the range, or — when that is many more days than the rest of the
 * month — as the month's row minus its days outside the range (the days after today are empty, so
 * this month costs its monthly rows alone). A month's rows weigh about 8 days' rows (a user with
 * orders on several days of a month has one monthly row), hence the margin. Exact either way: the
 * monthly rows are the sums of the daily ones, kept by the same trigger.
 */
export function rangePlan(from: string, to: string): RangePlan {
  const plan: RangePlan = { months: [], days: [], minusDays: [] }
  for (let first = `${from.slice(0, 7)}-01`; first <= to; ) {
    const next = addDays(first, 32).slice(0, 7) + '-01'
    const last = addDays(next, -1)
    const inFrom = from > first ? from : first
    const inTo = to < last ? to : last
    const inside = dayCount(inFrom, inTo)
    const outside = dayCount(first, last) - inside
    if (outside === 0 || inside > outside + 8) {
      plan.months.push(first.slice(0, 7))
      if (inFrom > first) plan.minusDays.push({ from: first, to: addDays(inFrom, -1) })
      if (inTo < last) plan.minusDays.push({ from: addDays(inTo, 1), to: last })
    } else {
      const prev = plan.days.at(-1)
      if (prev && addDays(prev.to, 1) === inFrom) prev.to = inTo
      else plan.days.push({ from: inFrom, to: inTo })
    }
    first = next
  }
  return plan
}

const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1

/**
 * A range cut at calendar months (decision 144): the months wholly inside it (each as its first and
 * last day), and its days in each month it holds only in part (at most two pieces, one at each end,
 * each within one month). Together they hold every day of the range exactly once.
 */
export function monthPieces(r: Range): { months: Range[]; edges: Range[] } {
  const months: Range[] = []
  const edges: Range[] = []
  for (let first = `${r.from.slice(0, 7)}-01`; first <= r.to; ) {
    const next = addDays(first, 32).slice(0, 7) + '-01'
    const last = addDays(next, -1)
    if (first >= r.from && last <= r.to) months.push({ from: first, to: last })
    else edges.push({ from: first > r.from ? first : r.from, to: last < r.to ? last : r.to })
    first = next
  }
  return { months, edges }
}

/** The first and last day of the month of a day. */
export function monthOf(day: string): Range {
  const first = `${day.slice(0, 7)}-01`
  return { from: first, to: addDays(addDays(first, 32).slice(0, 7) + '-01', -1) }
}

/**
 * The blocks of days whose per-user figures the API keeps summed ahead of the admins (decision 144):
 * every whole month before today's that a range of the last year (366 days back, the longest the
 * statistics page offers) can hold, and this month up to yesterday.
 */
export function keptBlocks(today: string): Range[] {
  const yesterday = addDays(today, -1)
  const months = monthPieces({ from: monthOf(addDays(today, -366)).from, to: yesterday }).months
  const thisMonth = monthOf(today).from
  return thisMonth <= yesterday ? [...months, { from: thisMonth, to: yesterday }] : months
}

/**
 * How a range of past days (up to `yesterday`) is read from kept blocks (decision 144): its whole
 * months as kept; each of its part-months either as its days from the aggregate, or as the kept block
 * of that month (the whole month, or this month up to yesterday) less the block's days outside the
 * range, whichever reads fewer days from the aggregate.
 */
export function blockPlan(r: Range, yesterday: string): { blocks: Range[]; plus: Range[]; minus: Range[] } {
  const { months, edges } = monthPieces(r)
  const plan = { blocks: months, plus: [] as Range[], minus: [] as Range[] }
  for (const e of edges) {
    const month = monthOf(e.from)
    const block = { from: month.from, to: month.to < yesterday ? month.to : yesterday }
    const outside = dayCount(block.from, e.from) - 1 + dayCount(e.to, block.to) - 1
    if (e.to > block.to || outside >= dayCount(e.from, e.to)) {
      plan.plus.push(e)
      continue
    }
    plan.blocks.push(block)
    if (e.from > block.from) plan.minus.push({ from: block.from, to: addDays(e.from, -1) })
    if (e.to < block.to) plan.minus.push({ from: addDays(e.to, 1), to: block.to })
  }
  return plan
}
