import { Button, Table, Text } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AfterSalesLink } from '#app/components/messages/after-sales-link.tsx'
import { orderListQuerySchema, ordersApi } from '#contract/orders.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { Mono, OrderFilters, PaymentMethodCell, ProductCell } from '#app/components/orders/orders.tsx'
import { DateTimeCell, PaymentStatusBadge, ShareCodeLink, yuan } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const query = listQuery(request, orderListQuerySchema, ['payment_status'])
  try {
    const page = await api(request, ordersApi.list, { token, query })
    return { title: await pageTitle(request, 'menu.myOrders'), page }
  } catch (e) {
    return pageError(request, e)
  }
}

/** The buyer's purchases; a completed one reopens its share (DESIGN §3: a buyer who lost the page). */
export default function MyOrders() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <ListPage
      title={t('menu.myOrders')}
      filters={
        <>
          <Text size="sm" c="dimmed">
            {t('orders.openHint')}
          </Text>
          <OrderFilters filters={['payment_status']} />
        </>
      }
      page={page}
      minWidth={1000}
      head={[
        t('orders.field.orderNo'),
        t('orders.field.product'),
        t('orders.field.unicode'),
        { label: t('orders.field.amount'), right: true },
        t('orders.field.paymentMethod'),
        t('orders.field.status'),
        t('orders.field.createdAt'),
      ]}
      actions
      row={(o) => (
        <Table.Tr key={o.id}>
          <Table.Td>
            <Mono>{o.orderNo}</Mono>
          </Table.Td>
          <ProductCell order={o} maw={280} />
          <Table.Td>{o.unicode ? <ShareCodeLink unicode={o.unicode} /> : '—'}</Table.Td>
          <Table.Td ta="right">{yuan(o.amount)}</Table.Td>
          <PaymentMethodCell order={o} />
          <Table.Td>
            <PaymentStatusBadge status={o.payment_status} />
          </Table.Td>
          <Table.Td>
            <DateTimeCell iso={o.created_at} />
          </Table.Td>
          <Table.Td className="ps-actions">
            <TextSeparated>
            {o.payment_status === 'Completed' && o.unicode ? (
              // The share page shows a buyer its content and its order through its account (decision
              // 102): the order number stays out of the URL.
              <Button component="a" href={`/share/${o.unicode}`} size="compact-xs" variant="light" aria-label={`${t('orders.open')} ${o.product_name}`}>
                {t('orders.open')}
              </Button>
            ) : o.product_type === 'channel' && o.payment_status === 'Completed' ? (
              <Button
                component={Link}
                to="/dashboard/makemoney"
                size="compact-xs"
                variant="light"
                aria-label={`${t('channels.orders.view')} ${o.product_name}`}
              >
                {t('channels.orders.view')}
              </Button>
            ) : o.product_type !== 'share' && o.payment_status === 'Pending' ? (
              // The pay page of any product order: the QR code, or on to the gateway's page.
              <Button
                component="a"
                href={`/pay/${o.orderNo}`}
                size="compact-xs"
                variant="light"
                aria-label={`${t('channels.orders.continuePay')} ${o.product_name}`}
              >
                {t('channels.orders.continuePay')}
              </Button>
            ) : null}
            {/* Issue 10: the after-sales chat of a paid order (opened after a confirm step on my-message). */}
            {o.payment_status === 'Completed' || o.payment_status === 'Refund' ? <AfterSalesLink orderNo={o.orderNo} /> : null}
            </TextSeparated>
          </Table.Td>
        </Table.Tr>
      )}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
