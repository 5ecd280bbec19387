import type { IncomeDaily, IncomeSummary } from '#contract/income.ts'
import type { Database } from '../../db/client.ts'
import { presentDaily, presentSummary } from './presenter.ts'
import { dailyIncome, incomeSums } from './repository.ts'
import { dashboardFigures, dayRange, everyDay, incomeCalendar } from './rules.ts'

/** The seller's dashboard figures at `now` (the app's clock), from the pre-aggregates (decision 045). */
export async function incomeSummary(db: Database, sellerId: number, now: Date): Promise<IncomeSummary> {
  return presentSummary(dashboardFigures(await incomeSums(db, sellerId, now, incomeCalendar(now))))
}

/** Net income and sales of each of the last `days` Shanghai days up to today, oldest first, zeros included. */
export async function incomeDaily(db: Database, sellerId: number, now: Date, days: number): Promise<IncomeDaily> {
  const range = dayRange(incomeCalendar(now).today, days)
  return presentDaily(everyDay(range, await dailyIncome(db, sellerId, range[0]!, range.at(-1)!)))
}
