import { BarChart } from '@mantine/charts'
// With the chart's chunk, after hydration: not a stylesheet the page waits for.
import '@mantine/charts/styles.css'
import { useTranslation } from 'react-i18next'
import type { IncomeDay } from '#contract/income.ts'
import { yuan } from '../shares/shares.tsx'

/**
 * The daily income as bars (@mantine/charts on recharts). Client-only: loaded after hydration, so the
 * server render and pages without JavaScript carry the table instead (IncomeDayTable).
 */
export default function IncomeChart({ days }: { days: IncomeDay[] }) {
  const { t } = useTranslation()
  const data = days.map((d) => ({ day: d.day.slice(5), income: d.income, orders: d.orders }))
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="day"
      series={[{ name: 'income', label: t('income.chart.income'), color: 'blue.6' }]}
      valueFormatter={(v) => yuan(v)}
      tickLine="y"
      gridAxis="y"
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
      yAxisProps={{ width: 64 }}
      tooltipAnimationDuration={150}
      // No growing bars: each animation frame was a render of the whole chart on the main thread (issue 24).
      barProps={{ isAnimationActive: false }}
      aria-label={t('income.chart.title', { count: days.length })}
    />
  )
}
