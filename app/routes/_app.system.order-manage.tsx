import { Button, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { Page } from '#contract/envelope.ts'
import { type Order, orderListQuerySchema, orderNoSchema } from '#contract/shares.ts'
import { ConfirmDialog, useUrlDialogs } from '~/components/dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { FormErrors } from '~/components/forms.tsx'
import { Pager } from '~/components/list.tsx'
import { OrderCells, OrderFilters, OrderHeadCells } from '~/components/orders.tsx'
import { yuan } from '~/components/shares.tsx'
import { callApi } from '~/.server/api.ts'
import { requireAdmin } from '~/.server/auth.ts'
import { loaderApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery, listUrl, rowActionError } from '~/.server/lists.ts'
import { redirectWithToast } from '~/.server/toast.ts'

/** `?refund=<orderNo>` opens the confirm step of a refund. */
const DIALOGS = ['refund'] as const
const FILTERS = ['keyword', 'orderNo', 'unicode', 'payment_status', 'from', 'to'] as const

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireAdmin(request)
  const query = listQuery(request, orderListQuerySchema, [...FILTERS])
  try {
    const page = await callApi<Page<Order>>(request, '/api/orders/admin/list', { token, query })
    const refundNo = orderNoSchema.safeParse(new URL(request.url).searchParams.get('refund'))
    let toRefund: Order | undefined
    if (refundNo.success) {
      toRefund =
        page.list.find((o) => o.orderNo === refundNo.data) ??
        (await callApi<Page<Order>>(request, '/api/orders/admin/list', { token, query: { orderNo: refundNo.data, pageSize: 1 } })).list[0]
    }
    return { title: await pageTitle(request, 'menu.adminOrders'), page, toRefund: toRefund?.payment_status === 'Completed' ? toRefund : null }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

const actionSchema = z.object({ intent: z.literal('refund'), orderNo: orderNoSchema })

/**
 * POST /api/orders/admin/refund. A refused refund is stated on the page — including the gateway's 502
 * answers, which are about the payment gateway, not about this session (no "Confirm logout").
 */
export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireAdmin(request)
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  try {
    await callApi(request, '/api/orders/admin/refund', { token, body: { orderNo: parsed.data.orderNo } })
  } catch (e) {
    return data({ error: await rowActionError(request, e, ['orders.refundFailed', 'orders.gatewayError']) }, { status: 400 })
  }
  return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'orders.refunded' })
}

export default function AdminOrders() {
  const { t } = useTranslation()
  const { page, toRefund } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <Stack>
      <Title order={2}>{t('menu.adminOrders')}</Title>
      <OrderFilters filters={[...FILTERS]} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      {toRefund ? (
        <ConfirmDialog
          title={t('orders.confirmRefundTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="refund"
          fields={{ orderNo: toRefund.orderNo }}
          confirmLabel={t('orders.refund')}
        >
          {t('orders.confirmRefundText', {
            orderNo: toRefund.orderNo,
            product: toRefund.product_name,
            amount: yuan(toRefund.amount),
            method: t(`orders.methods.${toRefund.paymentMethod}`),
            income: yuan(toRefund.seller_income ?? 0),
          })}
        </ConfirmDialog>
      ) : null}
      <Table.ScrollContainer minWidth={1100}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <OrderHeadCells
                buyer={
                  <>
                    {t('orders.field.buyer')} / {t('orders.field.seller')}
                  </>
                }
              />
              <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((o) => (
              <Table.Tr key={o.id}>
                <OrderCells
                  order={o}
                  buyer={
                    <>
                      <Text size="sm" c={o.username ? undefined : 'dimmed'}>
                        {o.username ?? t('orders.visitor')}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {o.seller_name ?? '—'}
                      </Text>
                    </>
                  }
                  productWidth={200}
                />
                <Table.Td className="ps-actions">
                  {o.payment_status === 'Completed' ? (
                    <Button
                      component={Link}
                      to={dialogs.open('refund', o.orderNo)}
                      preventScrollReset
                      size="compact-xs"
                      variant="light"
                      color="red"
                      aria-label={`${t('orders.refund')} ${o.orderNo}`}
                    >
                      {t('orders.refund')}
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
