import { Table, Text } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { orderListQuerySchema, ordersApi } from '#contract/orders.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { OrderCells, OrderFilters, OrderHeadCells } from '#app/components/orders/orders.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

const FILTERS = ['payment_status', 'from', 'to', 'unicode'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const query = listQuery(request, orderListQuerySchema, FILTERS)
  try {
    const page = await api(request, ordersApi.sellerList, { token, query })
    return { title: await pageTitle(request, 'menu.incomeOrders'), page }
  } catch (e) {
    return pageError(request, e)
  }
}

/** The orders of the seller's shares (SPEC §3 Order), with the fee, the seller's income and when it settles. */
export default function IncomeOrders() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <ListPage
      title={t('menu.incomeOrders')}
      filters={<OrderFilters filters={[...FILTERS]} />}
      page={page}
      minWidth={1050}
      head={<OrderHeadCells buyer={t('orders.field.buyer')} settlement />}
      row={(o) => (
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
            settlement
          />
        </Table.Tr>
      )}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
