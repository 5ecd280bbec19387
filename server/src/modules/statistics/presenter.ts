import { fenToYuan } from '#contract/money.ts'
import type { Cluster, StatisticsDay, StatisticsTab } from '#contract/statistics.ts'
import type { ClusterSums, DayRow } from './repository.ts'
import { type Sums, TAB_FIGURES } from './rules.ts'

/** A tab's figures on the wire: counts as they are, fen as yuan (contract/money.ts). */
export function presentFigures<T extends StatisticsTab>(tab: T, sums: Sums<T>): Sums<T> {
  const kinds = TAB_FIGURES[tab] as Record<string, 'count' | 'fen'>
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, kinds[k] === 'fen' ? fenToYuan(v as number) : v])) as Sums<T>
}

export function presentDay(d: DayRow): StatisticsDay {
  return { day: d.day, orders: d.orders, gmv: fenToYuan(d.gmvFen), refunded: d.refunded, newUsers: d.newUsers }
}

export function presentCluster(today: string, c: ClusterSums): Cluster {
  const { gmvTodayFen, gmvMonthFen, ...counts } = c
  return { today, gmvToday: fenToYuan(gmvTodayFen), gmvMonth: fenToYuan(gmvMonthFen), ...counts }
}
