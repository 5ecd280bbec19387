import { Stack, Table, Text, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import { type Order, orderListQuerySchema } from '#contract/shares.ts'
import { GeneralErrorBoundary } from '~/components/feedback/error-boundary.tsx'
import { Pager } from '~/components/lists/pager.tsx'
import { OrderCells, OrderFilters, OrderHeadCells } from '~/components/orders/orders.tsx'
import { callApi } from '~/.server/api.ts'
import { requireUser } from '~/.server/auth.ts'
import { loaderApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery } from '~/.server/lists.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireUser(request)
  const query = listQuery(request, orderListQuerySchema, ['payment_status', 'from', 'to', 'unicode'])
  try {
    const page = await callApi<Page<Order>>(request, '/api/orders/seller/list', { token, query })
    return { title: await pageTitle(request, 'menu.incomeOrders'), page }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

/** The orders of the seller's shares (SPEC §3 Order), with the fee and the seller's income. */
export default function IncomeOrders() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <Stack>
      <Title order={2}>{t('menu.incomeOrders')}</Title>
      <OrderFilters filters={['payment_status', 'from', 'to', 'unicode']} />
      <Table.ScrollContainer minWidth={1050}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <OrderHeadCells buyer={t('orders.field.buyer')} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((o) => (
              <Table.Tr key={o.id}>
                <OrderCells
                  order={o}
                  buyer={
                    o.username ?? (
                      <Text c="dimmed" size="sm" span>
                        {t('orders.visitor')}
                      </Text>
                    )
                  }
                  productWidth={240}
                />
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
