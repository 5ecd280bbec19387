import { Button, Group, NativeSelect, Text, TextInput } from '@mantine/core'
import { Form, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PAYMENT_STATUSES } from '#contract/shares.ts'

type OrderFilter = 'payment_status' | 'from' | 'to' | 'unicode' | 'keyword' | 'orderNo'

/** The GET filter form of the order lists (`/api/orders/*list` query): native inputs, so it works without JavaScript. */
export function OrderFilters({ filters }: { filters: OrderFilter[] }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const has = (f: OrderFilter) => filters.includes(f)
  const value = (f: OrderFilter) => params.get(f) ?? ''
  return (
    <Form method="get">
      <Group align="flex-end" gap="sm">
        {has('keyword') ? <TextInput name="keyword" label={t('orders.filter.keyword')} defaultValue={value('keyword')} maxLength={100} /> : null}
        {has('orderNo') ? <TextInput name="orderNo" label={t('orders.filter.orderNo')} defaultValue={value('orderNo')} maxLength={40} /> : null}
        {has('unicode') ? <TextInput name="unicode" label={t('orders.filter.unicode')} defaultValue={value('unicode')} maxLength={8} w={130} /> : null}
        {has('payment_status') ? (
          <NativeSelect
            name="payment_status"
            label={t('orders.filter.status')}
            defaultValue={value('payment_status')}
            data={[{ value: '', label: t('common.all') }, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`orders.statuses.${s}`) }))]}
          />
        ) : null}
        {has('from') ? <TextInput type="date" name="from" label={t('orders.filter.from')} defaultValue={value('from')} /> : null}
        {has('to') ? <TextInput type="date" name="to" label={t('orders.filter.to')} defaultValue={value('to')} /> : null}
        <Button type="submit" variant="light">
          {t('common.search')}
        </Button>
      </Group>
    </Form>
  )
}

/** Order and trade numbers are long (28 characters): small monospace, never wrapped. */
export function Mono({ children, dimmed }: { children: string | null | undefined; dimmed?: boolean }) {
  return (
    <Text size="xs" ff="monospace" c={dimmed ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {children || '—'}
    </Text>
  )
}
