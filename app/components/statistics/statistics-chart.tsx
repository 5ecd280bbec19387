import { BarChart } from '@mantine/charts'
import { useTranslation } from 'react-i18next'
import type { StatisticsDay, StatisticsTab } from '#contract/statistics.ts'
import { yuan } from '../shares/shares.tsx'
import { chartColumn, STATISTICS_COLUMNS } from './columns.ts'

type Row = Record<string, number | string | null> & { userId: number; username: string }

/**
 * The chart of a statistics tab (@mantine/charts on recharts), client-only: loaded after hydration, so
 * the server render and pages without JavaScript carry the tables of the same numbers instead.
 * Comprehensive: the platform's GMV per day of the range. The other tabs: the page's users by the
 * figure the table leads with.
 */
export default function StatisticsChart({ tab, rows, daily }: { tab: StatisticsTab; rows: Row[]; daily: StatisticsDay[] }) {
  const { t } = useTranslation()
  if (tab === 'comprehensive') {
    return (
      <BarChart
        h={260}
        data={daily.map((d) => ({ day: d.day.slice(5), gmv: d.gmv }))}
        dataKey="day"
        series={[{ name: 'gmv', label: t('statistics.daily.gmv'), color: 'blue.6' }]}
        valueFormatter={(v) => yuan(v)}
        tickLine="y"
        gridAxis="y"
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        yAxisProps={{ width: 72 }}
        tooltipAnimationDuration={150}
      />
    )
  }
  const key = chartColumn(tab)
  const yuanKind = STATISTICS_COLUMNS[tab].find((c) => c.key === key)?.kind === 'yuan'
  return (
    <BarChart
      h={Math.max(160, rows.length * 28 + 40)}
      data={rows.map((r) => ({ user: r.username, value: Number(r[key] ?? 0) }))}
      dataKey="user"
      orientation="vertical"
      series={[{ name: 'value', label: t(`statistics.col.${tab}.${key}`), color: 'blue.6' }]}
      valueFormatter={(v) => (yuanKind ? yuan(v) : String(v))}
      gridAxis="x"
      yAxisProps={{ width: 120 }}
      tooltipAnimationDuration={150}
    />
  )
}
