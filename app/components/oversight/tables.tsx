// The tables the admin's user view and its "ban seller and refund buyers" preview (decision 067) both
// show: a seller's shares, and orders with their buyer or seller. One copy, so the two pages list a
// share or an order the same way.
import { Anchor, Table, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { type Order, paymentMethodLabel } from '#contract/orders.ts'
import type { ShareStatus } from '#contract/shares.ts'
import { ShareCodeLink, ShareStatusBadge, yuan } from '#app/components/shares/shares.tsx'
import { formatDateTime } from '#app/utils/format.ts'

export function Empty() {
  const { t } = useTranslation()
  return <Text c="dimmed">{t('common.empty')}</Text>
}

type ShareRow = { id: number; unicode: string; title: string; price: number; status: ShareStatus; created_at?: string }

/** A seller's shares: code (opens the share page), title, price, status, and when created where known. */
export function SellerShareTable({ shares, withCreatedAt = false }: { shares: ShareRow[]; withCreatedAt?: boolean }) {
  const { t } = useTranslation()
  if (shares.length === 0) return <Empty />
  return (
    <Table.ScrollContainer minWidth={withCreatedAt ? 640 : 520}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('shares.field.unicode')}</Table.Th>
            <Table.Th>{t('shares.field.title')}</Table.Th>
            <Table.Th>{t('shares.field.price')}</Table.Th>
            <Table.Th>{t('shares.field.status')}</Table.Th>
            {withCreatedAt ? <Table.Th>{t('shares.field.createdAt')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shares.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <ShareCodeLink unicode={s.unicode} newTab />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.title}</Table.Td>
              <Table.Td>{yuan(s.price)}</Table.Td>
              <Table.Td>
                <ShareStatusBadge status={s.status} />
              </Table.Td>
              {withCreatedAt ? <Table.Td>{formatDateTime(s.created_at)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

type OrderRow = Pick<Order, 'id' | 'orderNo' | 'product_name' | 'amount' | 'paymentMethod' | 'username'> & { seller_name?: string | null }

/**
 * Orders: number, product, the other party (a visitor without an account says so), amount with the
 * payment method, then the page's own columns (`more`) and an optional footer.
 */
export function PartyOrderTable<O extends OrderRow>({
  orders,
  other,
  linked = false,
  more,
  footer,
  minWidth,
}: {
  orders: O[]
  other: 'buyer' | 'seller'
  /** The number opens the order in the admin's order list. */
  linked?: boolean
  more: { head: string; cell: (o: O) => ReactNode }[]
  footer?: ReactNode
  minWidth: number
}) {
  const { t } = useTranslation()
  if (orders.length === 0) return <Empty />
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('orders.field.orderNo')}</Table.Th>
            <Table.Th>{t('orders.field.product')}</Table.Th>
            <Table.Th>{other === 'buyer' ? t('orders.field.buyer') : t('orders.field.seller')}</Table.Th>
            <Table.Th>{t('orders.field.amount')}</Table.Th>
            {more.map((m) => (
              <Table.Th key={m.head}>{m.head}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.id}>
              {linked ? (
                <Table.Td>
                  <Anchor component={Link} to={`/system/order-manage?orderNo=${o.orderNo}`} size="sm" ff="monospace">
                    {o.orderNo}
                  </Anchor>
                </Table.Td>
              ) : (
                <Table.Td ff="monospace">{o.orderNo}</Table.Td>
              )}
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{o.product_name}</Table.Td>
              <Table.Td>{(other === 'buyer' ? o.username : o.seller_name) ?? t('orders.visitor')}</Table.Td>
              <Table.Td>
                {yuan(o.amount)}
                <Text size="xs" c="dimmed">
                  {t(paymentMethodLabel(o.paymentMethod))}
                </Text>
              </Table.Td>
              {more.map((m) => (
                <Table.Td key={m.head}>{m.cell(o)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {footer}
      </Table>
    </Table.ScrollContainer>
  )
}
