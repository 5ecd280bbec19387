import type { IncomeDaily, IncomeSummary } from '#contract/income.ts'
import { fenToYuan } from '#contract/money.ts'
import type { DashboardFigures, DayFigures } from './rules.ts'

/** SPEC §3 Dashboard figures on the wire: yuan. */
export function presentSummary(f: DashboardFigures): IncomeSummary {
  return {
    withdrawable: fenToYuan(f.withdrawableFen),
    month: fenToYuan(f.monthFen),
    today: fenToYuan(f.todayFen),
    unsettled: fenToYuan(f.unsettledFen),
    total: fenToYuan(f.totalFen),
  }
}

export function presentDaily(days: DayFigures[]): IncomeDaily {
  return { list: days.map((d) => ({ day: d.day, income: fenToYuan(d.incomeFen), orders: d.orders })) }
}
