import { BarChart, DonutChart, LineChart } from '@mantine/charts'
import { Card, Group, SimpleGrid, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { yuan } from '#app/components/shares/shares.tsx'
import type { VisualizationData } from './route.tsx'

type Props = Pick<VisualizationData, 'days' | 'shares' | 'byType'>

const TYPE_COLORS = { text: 'blue.6', url: 'teal.6', netdisk: 'orange.6' } as const

/** The /visualization charts (client only, loaded after hydration; the page's tables hold the numbers). */
export default function Charts({ days, shares, byType }: Props) {
  const { t } = useTranslation()
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} aria-hidden="true">
      <Card withBorder>
        <Text size="sm" fw={500} mb="xs">
          {t('shell.visualization.income', { count: days.length })}
        </Text>
        <LineChart
          h={200}
          data={days.map((d) => ({ day: d.day.slice(5), income: d.income }))}
          dataKey="day"
          series={[{ name: 'income', label: t('shell.visualization.incomeCol'), color: 'var(--mantine-primary-color-filled)' }]}
          valueFormatter={(v) => yuan(v)}
          curveType="monotone"
          withDots={false}
          yAxisProps={{ width: 56 }}
        />
      </Card>
      <Card withBorder>
        <Text size="sm" fw={500} mb="xs">
          {t('shell.visualization.shares')}
        </Text>
        <BarChart
          h={200}
          data={shares.map((s) => ({ share: s.unicode, visits: s.visits, purchases: s.purchases }))}
          dataKey="share"
          series={[
            { name: 'visits', label: t('shell.visualization.visits'), color: 'blue.5' },
            { name: 'purchases', label: t('shell.visualization.purchases'), color: 'green.6' },
          ]}
          xAxisProps={{ tick: false }}
        />
      </Card>
      <Card withBorder>
        <Text size="sm" fw={500} mb="xs">
          {t('shell.visualization.byType')}
        </Text>
        <Group justify="center">
          <DonutChart
            size={160}
            thickness={24}
            withLabelsLine
            data={byType.map((b) => ({ name: t(`shares.types.${b.type}`), value: b.count, color: TYPE_COLORS[b.type] }))}
            chartLabel={byType.reduce((n, b) => n + b.count, 0)}
          />
        </Group>
      </Card>
    </SimpleGrid>
  )
}
