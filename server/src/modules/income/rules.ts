import { addDays, monthStartDay, shanghaiDay } from '#contract/days.ts'

/**
 * The Asia/Shanghai calendar of the dashboard at `now` (decision 045): today, and the first days of
 * this month and of the next, so "this month" is the half-open range [monthStart, nextMonthStart).
 */
export function incomeCalendar(now: Date): { today: string; monthStart: string; nextMonthStart: string } {
  const monthStart = monthStartDay(now)
  const [y, m] = monthStart.split('-').map(Number) as [number, number]
  const nextMonthStart = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`
  return { today: shanghaiDay(now), monthStart, nextMonthStart }
}

/** The `days` Shanghai days ending with `today`, oldest first. */
export function dayRange(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1))
}

export type DayFigures = { day: string; incomeFen: number; orders: number }

/** Every day of the range, oldest first: the stored ones as they are, the others as zeros. */
export function everyDay(range: string[], stored: DayFigures[]): DayFigures[] {
  const byDay = new Map(stored.map((d) => [d.day, d]))
  return range.map((day) => byDay.get(day) ?? { day, incomeFen: 0, orders: 0 })
}

/** What the summary query reads, in fen. */
export type IncomeSums = { balanceFen: number; incomeFen: number; todayFen: number; monthFen: number; unsettledFen: number }

/**
 * SPEC §3 Dashboard figures in fen (decision 045). Withdrawable is the ledger's `withdrawableFen`:
 * the balance less what is unsettled — negative after a refund of settled income.
 */
export function dashboardFigures(s: IncomeSums) {
  return { withdrawableFen: s.balanceFen - s.unsettledFen, monthFen: s.monthFen, todayFen: s.todayFen, unsettledFen: s.unsettledFen, totalFen: s.incomeFen }
}
export type DashboardFigures = ReturnType<typeof dashboardFigures>
