import { Alert, Badge, Card, SimpleGrid, Stack, Table, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { IncomeDay, IncomeSummary } from '#contract/income.ts'
import type { Order } from '#contract/orders.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { yuan } from '../shares/cells.tsx'

/** SPEC §3 Dashboard figures, in the order the SPEC names them. */
const FIGURES = ['withdrawable', 'month', 'today', 'unsettled', 'total'] as const

/**
 * The five dashboard figures in CNY, each with what it sums (decision 045). A negative withdrawable
 * amount is shown in red with the reason withdrawals are blocked.
 */
export function IncomeFigures({ summary }: { summary: IncomeSummary }) {
  const { t } = useTranslation()
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" component="dl" m={0}>
        {FIGURES.map((key) => {
          const negative = summary[key] < 0
          return (
            <Card key={key} withBorder padding="md" className={key === 'withdrawable' ? 'ps-figure-main' : undefined}>
              <Text component="dt" size="sm" c="dimmed">
                {t(`income.figures.${key}`)}
              </Text>
              <Text component="dd" m={0} fw={700} fz={{ base: 'lg', sm: 'xl' }} c={negative ? 'red' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {yuan(summary[key])}
              </Text>
              <Text component="dd" m={0} size="xs" c="dimmed" mt={4} visibleFrom="sm">
                {t(`income.hints.${key}`)}
              </Text>
            </Card>
          )
        })}
      </SimpleGrid>
      {summary.withdrawable < 0 ? (
        <Alert color="red" variant="light" title={t('income.negative.title')} role="alert">
          {t('income.negative.text', { amount: yuan(summary.withdrawable) })}
        </Alert>
      ) : null}
    </Stack>
  )
}

/** The daily series as a table, newest day first: what the chart draws, readable without JavaScript. */
export function IncomeDayTable({ days }: { days: IncomeDay[] }) {
  const { t } = useTranslation()
  return (
    <Table.ScrollContainer minWidth={280} mah={360}>
      <Table striped stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('income.chart.day')}</Table.Th>
            <Table.Th ta="right">{t('income.chart.income')}</Table.Th>
            <Table.Th ta="right">{t('income.chart.orders')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...days].reverse().map((d) => (
            <Table.Tr key={d.day}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{d.day}</Table.Td>
              <Table.Td ta="right" c={d.income < 0 ? 'red' : d.income === 0 ? 'dimmed' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {yuan(d.income)}
              </Table.Td>
              <Table.Td ta="right" c={d.orders === 0 ? 'dimmed' : undefined}>
                {d.orders}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/**
 * When a sale's income becomes withdrawable, and whether it has (by the API's clock): a badge over the
 * settle time (the date over the time, so a phone's narrow column shows both). Only completed sales
 * with income have one; a refunded sale's income never settles.
 */
export function SettleState({ order: o }: { order: Order }) {
  const { t } = useTranslation()
  if (o.payment_status !== 'Completed' || !o.settle_at) return null
  const [date, time] = formatDateTime(o.settle_at).split(' ')
  return (
    <Stack gap={2} align="flex-start">
      <Badge variant="light" color={o.settled ? 'green' : 'orange'} style={{ minWidth: 'max-content' }}>
        {t(o.settled ? 'income.settle.settled' : 'income.settle.unsettled')}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title={t('income.settle.at', { time: formatDateTime(o.settle_at) })}>
        {date}
        <br />
        {time}
      </Text>
    </Stack>
  )
}
