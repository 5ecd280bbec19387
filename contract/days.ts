// Calendar days of the marketplace: Asia/Shanghai (UTC+8, no daylight saving), the day of SPEC §5's
// recency window, of "today" and "this month" on the dashboard, of daily unlocks and visit counting.
const OFFSET_MS = 8 * 3600 * 1000
const DAY_MS = 24 * 3600 * 1000

/** yyyy-MM-dd of an instant in Asia/Shanghai. */
export function shanghaiDay(at: Date = new Date()): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10)
}

/** The instant a Shanghai day (yyyy-MM-dd) begins. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00+08:00`)
}

/** The Shanghai day `n` days after (negative: before) `day`. */
export function addDays(day: string, n: number): string {
  return shanghaiDay(new Date(dayStart(day).getTime() + n * DAY_MS))
}

/** The first day (yyyy-MM-01) of the Shanghai month of an instant. */
export function monthStartDay(at: Date = new Date()): string {
  return `${shanghaiDay(at).slice(0, 7)}-01`
}
