import { Badge, Stack, Table, Text } from '@mantine/core'
import { useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type Withdrawal, WITHDRAWAL_STATUS_VIEW, WITHDRAWAL_STATUSES, type WithdrawalStatus } from '#contract/withdrawals.ts'
import { DateTimeCell, yuan } from '../shares/shares.tsx'
import { DateField } from '#app/components/forms/date-field.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'

const NO_SHRINK = { minWidth: 'max-content' } as const

export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation()
  const view = WITHDRAWAL_STATUS_VIEW[status]
  return (
    <Badge variant="light" color={view.color} style={NO_SHRINK}>
      {t(view.label)}
    </Badge>
  )
}

type Filter = 'status' | 'keyword' | 'from' | 'to'

/** The GET filter form of the withdrawal lists: native inputs, so it works without JavaScript. */
export function WithdrawalFilters({ filters }: { filters: Filter[] }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const has = (f: Filter) => filters.includes(f)
  return (
    <FilterForm>
      {has('keyword') ? <TextFilter name="keyword" label={t('withdrawals.filter.keyword')} /> : null}
      <SelectFilter name="status" label={t('withdrawals.filter.status')} options={WITHDRAWAL_STATUSES.map((s) => [s, t(WITHDRAWAL_STATUS_VIEW[s].label)] as const)} />
      {has('from') ? <DateField name="from" label={t('withdrawals.filter.from')} value={params.get('from') ?? ''} /> : null}
      {has('to') ? <DateField name="to" label={t('withdrawals.filter.to')} value={params.get('to') ?? ''} /> : null}
    </FilterForm>
  )
}

/** The header cells shared by the seller's and the admin's lists (up to the admin's own columns). */
export function WithdrawalHeadCells() {
  const { t } = useTranslation()
  return (
    <>
      <Table.Th>{t('withdrawals.field.applicationTime')}</Table.Th>
      <Table.Th ta="right">{t('withdrawals.field.amount')}</Table.Th>
      <Table.Th ta="right">{t('withdrawals.field.fee')}</Table.Th>
      <Table.Th ta="right">{t('withdrawals.field.actual')}</Table.Th>
      <Table.Th>{t('withdrawals.field.alipay')}</Table.Th>
      <Table.Th>{t('withdrawals.field.status')}</Table.Th>
      <Table.Th>
        {t('withdrawals.field.processingTime')} / {t('withdrawals.field.transactionOrder')}
      </Table.Th>
    </>
  )
}

/**
 * The cells of a withdrawal row, matching WithdrawalHeadCells. A Failed one shows its reason under the
 * badge; a Pending one, in the admin's list, the last Alipay payout problem.
 */
export function WithdrawalCells({ w }: { w: Withdrawal }) {
  const { t } = useTranslation()
  return (
    <>
      <Table.Td>
        <DateTimeCell iso={w.application_time} />
      </Table.Td>
      <Table.Td ta="right">{yuan(w.withdrawalAmount)}</Table.Td>
      <Table.Td ta="right">{yuan(w.withdrawalServiceFee)}</Table.Td>
      <Table.Td ta="right" fw={500}>
        {yuan(w.actualWithdrawalAmount)}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{w.alipayRealName}</Text>
        <Text size="xs" c="dimmed">
          {w.alipayAccount}
        </Text>
      </Table.Td>
      <Table.Td miw={120} maw={260}>
        <Stack gap={4} align="flex-start">
          <WithdrawalStatusBadge status={w.status} />
          {w.failure_reason ? (
            <Text size="xs" c="red.8">
              {t('withdrawals.field.failureReason')}: {w.failure_reason}
            </Text>
          ) : null}
          {w.payout_error ? (
            <Text size="xs" c={w.payout_method === 'alipay' ? 'orange.8' : 'red.8'}>
              {w.payout_method === 'alipay' ? t('withdrawals.admin.payoutRunning') : t('withdrawals.admin.payoutError')}: {w.payout_error}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td miw={150} maw={220}>
        <DateTimeCell iso={w.processing_time} />
        {w.transaction_order ? (
          // Transfer order numbers run to 32 digits or more: broken anywhere rather than widening the table.
          <Text size="xs" ff="monospace" mt={2} style={{ wordBreak: 'break-all' }} data-testid="transaction-order">
            {w.transaction_order}
          </Text>
        ) : null}
        {w.status === 'Completed' && w.payout_method ? (
          <Text size="xs" c="dimmed">
            {t(`withdrawals.methods.${w.payout_method}`)}
          </Text>
        ) : null}
      </Table.Td>
    </>
  )
}
