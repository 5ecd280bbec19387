import { Button, Stack, Table, Text, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import { type Order, orderListQuerySchema } from '#contract/shares.ts'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { Pager } from '~/components/list.tsx'
import { Mono, OrderFilters, PaymentMethodCell, ProductCell } from '~/components/orders.tsx'
import { DateTimeCell, PaymentStatusBadge, ShareCodeLink, yuan } from '~/components/shares.tsx'
import { callApi } from '~/.server/api.ts'
import { requireUser } from '~/.server/auth.ts'
import { loaderApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery } from '~/.server/lists.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireUser(request)
  const query = listQuery(request, orderListQuerySchema, ['payment_status'])
  try {
    const page = await callApi<Page<Order>>(request, '/api/orders/list', { token, query })
    return { title: await pageTitle(request, 'menu.myOrders'), page }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

/** The buyer's purchases; a completed one reopens its share (DESIGN §3: a buyer who lost the page). */
export default function MyOrders() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <Stack>
      <Title order={2}>{t('menu.myOrders')}</Title>
      <Text size="sm" c="dimmed">
        {t('orders.openHint')}
      </Text>
      <OrderFilters filters={['payment_status']} />
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orders.field.orderNo')}</Table.Th>
              <Table.Th>{t('orders.field.product')}</Table.Th>
              <Table.Th>{t('orders.field.unicode')}</Table.Th>
              <Table.Th ta="right">{t('orders.field.amount')}</Table.Th>
              <Table.Th>{t('orders.field.paymentMethod')}</Table.Th>
              <Table.Th>{t('orders.field.status')}</Table.Th>
              <Table.Th>{t('orders.field.createdAt')}</Table.Th>
              <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((o) => (
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
                  {o.payment_status === 'Completed' && o.unicode ? (
                    <Button
                      component="a"
                      href={`/share/${o.unicode}?${new URLSearchParams({ order: o.orderNo })}`}
                      size="compact-xs"
                      variant="light"
                      aria-label={`${t('orders.open')} ${o.product_name}`}
                    >
                      {t('orders.open')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page.list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      <Pager total={page.total} pageNum={page.pageNum} pageSize={page.pageSize} />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
