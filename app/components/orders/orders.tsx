import { Badge, Stack, Table, Text } from '@mantine/core'
import { useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { PAYMENT_STATUS_VIEW, PAYMENT_STATUSES, paymentMethodLabel, REFUND_STATES } from '#contract/values/orders.ts'
import { type Order } from '#contract/orders.ts'
import { SettleState } from '../income/income.tsx'
import { DateTimeCell, PaymentStatusBadge, ShareCodeLink, yuan } from '../shares/shares.tsx'
import { DateField } from '#app/components/forms/date-field.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'

type OrderFilter = 'payment_status' | 'refund_state' | 'from' | 'to' | 'unicode' | 'keyword' | 'orderNo'

/** The GET filter form of the order lists (`/api/orders/*list` query): native inputs, so it works without JavaScript. */
export function OrderFilters({ filters }: { filters: OrderFilter[] }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const has = (f: OrderFilter) => filters.includes(f)
  return (
    <FilterForm>
      {has('keyword') ? <TextFilter name="keyword" label={t('orders.filter.keyword')} /> : null}
      {has('orderNo') ? <TextFilter name="orderNo" label={t('orders.filter.orderNo')} maxLength={40} /> : null}
      {has('unicode') ? <TextFilter name="unicode" label={t('orders.filter.unicode')} maxLength={8} w={130} /> : null}
      {has('payment_status') ? (
        <SelectFilter name="payment_status" label={t('orders.filter.status')} options={PAYMENT_STATUSES.map((s) => [s, t(PAYMENT_STATUS_VIEW[s].label)] as const)} />
      ) : null}
      {has('refund_state') ? <SelectFilter name="refund_state" label={t('orders.refundStateFilter')} options={REFUND_STATES.map((s) => [s, t(`orders.refundStates.${s}`)] as const)} /> : null}
      {has('from') ? <DateField name="from" label={t('orders.filter.from')} value={params.get('from') ?? ''} /> : null}
      {has('to') ? <DateField name="to" label={t('orders.filter.to')} value={params.get('to') ?? ''} /> : null}
    </FilterForm>
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

export function PaymentMethodCell({ order }: { order: Order }) {
  const { t } = useTranslation()
  return <Table.Td style={{ whiteSpace: 'nowrap' }}>{t(paymentMethodLabel(order.paymentMethod))}</Table.Td>
}

/**
 * The product name, at most two lines in a column at most `maw` wide and at least 180 px (narrower, the
 * other columns squeezed it to a few characters a line).
 */
export function ProductCell({ order, maw }: { order: Order; maw: number }) {
  const { t } = useTranslation()
  return (
    <Table.Td miw={180} maw={Math.max(maw, 180)}>
      <Text size="sm" lineClamp={2} title={order.product_name}>
        {order.product_name}
      </Text>
      {order.product_type !== 'share' ? (
        // A channel or package order: it has no share code, so say what it bought.
        <Badge size="xs" variant="light" color="violet" style={{ textTransform: 'none' }}>
          {t(`channels.productTypes.${order.product_type}`)}
        </Badge>
      ) : null}
    </Table.Td>
  )
}

/**
 * The header cells of the seller's and the admin's order lists up to the actions column; `buyer` is the
 * buyer column's header (the admin's also names the seller); `settlement` puts when each sale settles under its status.
 */
export function OrderHeadCells({ buyer, settlement }: { buyer: ReactNode; settlement?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <Table.Th>
        {t('orders.field.orderNo')} / {t('orders.field.tradeNo')}
      </Table.Th>
      <Table.Th>{buyer}</Table.Th>
      <Table.Th>{t('orders.field.paymentMethod')}</Table.Th>
      <Table.Th>{t('orders.field.unicode')}</Table.Th>
      <Table.Th ta="right">{t('orders.field.amount')}</Table.Th>
      <Table.Th ta="right">{t('orders.field.fee')}</Table.Th>
      <Table.Th ta="right">{t('orders.field.income')}</Table.Th>
      <Table.Th>{t('orders.field.product')}</Table.Th>
      <Table.Th>
        {t('orders.field.status')}
        {settlement ? <> / {t('income.settle.column')}</> : null}
      </Table.Th>
      <Table.Th>{t('orders.field.createdAt')}</Table.Th>
    </>
  )
}

/**
 * A refund the gateway has not confirmed (decision 057), under the status badge: in progress, or
 * failed (an admin must handle it at the gateway). Nothing once it is confirmed.
 */
function RefundStateNote({ order }: { order: Order }) {
  const { t } = useTranslation()
  if (order.refund_state !== 'pending' && order.refund_state !== 'failed') return null
  const failed = order.refund_state === 'failed'
  return (
    <>
      <Text size="xs" mt={4} c={failed ? 'red' : 'orange'} fw={failed ? 600 : undefined} style={{ whiteSpace: 'nowrap' }}>
        {t(`orders.refundStates.${order.refund_state}`)}
      </Text>
      {failed ? (
        <Text size="xs" c="dimmed" maw={200}>
          {t('orders.refundFailedHint')}
        </Text>
      ) : null}
    </>
  )
}

/**
 * The cells of an order row in the seller's and the admin's lists, matching OrderHeadCells; `buyer` fills
 * the buyer cell; `settlement` shows a sale's settle state; `refundState` notes a refund not yet confirmed by the gateway under the status.
 */
export function OrderCells({
  order: o,
  buyer,
  productWidth,
  refundState,
  settlement,
}: {
  order: Order
  buyer: ReactNode
  productWidth: number
  refundState?: boolean
  settlement?: boolean
}) {
  return (
    <>
      <Table.Td>
        <Mono>{o.orderNo}</Mono>
        {/* A free unlock carries its own order number as its trade number (decision 055): shown once. */}
        {o.alipayTradeNo !== o.orderNo ? <Mono dimmed>{o.alipayTradeNo}</Mono> : null}
      </Table.Td>
      {/* Long user names wrap, so the list keeps its last column in view at 1366 px whatever the data. */}
      <Table.Td maw={110} style={{ overflowWrap: 'anywhere' }}>
        {buyer}
      </Table.Td>
      <PaymentMethodCell order={o} />
      <Table.Td>{o.unicode ? <ShareCodeLink unicode={o.unicode} newTab /> : '—'}</Table.Td>
      <Table.Td ta="right">{yuan(o.amount)}</Table.Td>
      {/* A channel or package is sold by the platform: no seller, so no fee or seller income. */}
      <Table.Td ta="right">{o.product_type === 'share' ? yuan(o.fee) : '—'}</Table.Td>
      <Table.Td ta="right">{o.product_type === 'share' ? yuan(o.seller_income) : '—'}</Table.Td>
      <ProductCell order={o} maw={productWidth} />
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <PaymentStatusBadge status={o.payment_status} />
          {settlement ? <SettleState order={o} /> : null}
          {refundState ? <RefundStateNote order={o} /> : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <DateTimeCell iso={o.created_at} />
      </Table.Td>
    </>
  )
}
