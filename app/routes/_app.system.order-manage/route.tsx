import { Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import { idSchema } from '#contract/users.ts'
import { isRefundable, type Order, orderListQuerySchema, orderNoSchema, ordersApi, paymentMethodLabel } from '#contract/orders.ts'
import { HistoryDialog } from '#app/components/audit/history-dialog.tsx'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { OrderCells, OrderFilters, OrderHeadCells } from '#app/components/orders/orders.tsx'
import { RevealsDialog } from '#app/components/orders/reveals.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { RowLink, RowPost } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/**
 * `?refund=<orderNo>` opens the confirm step of a refund, `?history=<id>` the order's audit trail (issue
 * 9), `?reveals=<id>` who its content was shown to (decision 102).
 */
const DIALOGS = ['refund', 'history', 'reveals'] as const
const FILTERS = ['keyword', 'orderNo', 'unicode', 'payment_status', 'refund_state', 'from', 'to'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, orderListQuerySchema, FILTERS)
  try {
    const page = await api(request, ordersApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const refundNo = orderNoSchema.safeParse(params.get('refund'))
    let toRefund: Order | undefined
    if (refundNo.success) {
      toRefund =
        page.list.find((o) => o.orderNo === refundNo.data) ??
        (await api(request, ordersApi.adminList, { token, query: { orderNo: refundNo.data, pageSize: 1 } })).list[0]
    }
    const historyId = idSchema.safeParse(params.get('history'))
    const history = historyId.success
      ? {
          item: page.list.find((o) => o.id === historyId.data)?.orderNo ?? `#${historyId.data}`,
          events: (await api(request, auditApi.adminList, { token, query: { subject: `order:${historyId.data}` } })).list,
        }
      : null
    const revealsId = idSchema.safeParse(params.get('reveals'))
    const reveals = revealsId.success
      ? {
          orderNo: page.list.find((o) => o.id === revealsId.data)?.orderNo ?? `#${revealsId.data}`,
          ...(await api(request, ordersApi.adminReveals, { token, query: { id: revealsId.data } })),
        }
      : null
    return { title: await pageTitle(request, 'menu.adminOrders'), page, toRefund: toRefund && isRefundable(toRefund) ? toRefund : null, history, reveals }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.object({ intent: z.literal('refund'), orderNo: orderNoSchema })

/**
 * POST /api/orders/admin/refund: refunds a completed order, or asks the gateway again about a refund
 * it has not confirmed. A refused refund is stated on the page — including the gateway's 502 answers,
 * which are about the payment gateway, not about this session (no "Confirm logout").
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request, ['refund'])))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  let refunded
  try {
    refunded = await api(request, ordersApi.adminRefund, { token, body: { orderNo: parsed.data.orderNo } })
  } catch (e) {
    return rowRefusal(request, e, {}, ['orders.refundFailed', 'orders.gatewayError'])
  }
  const key = refunded.refund_state === 'done' ? 'orders.refunded' : 'orders.refundPending'
  return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key })
}

/** Asks the gateway again about a refund it has not confirmed (a plain POST: works without JavaScript). */
function CheckRefundButton({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation()
  return <RowPost fields={{ orderNo }} intent="refund" label={t('orders.checkRefund')} item={orderNo} />
}

export default function AdminOrders() {
  const { t } = useTranslation()
  const { page, toRefund, history, reveals } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <ListPage
      title={t('menu.adminOrders')}
      filters={<OrderFilters filters={[...FILTERS]} />}
      page={page}
      minWidth={1100}
      head={
        <>
          <OrderHeadCells
            buyer={
              <>
                {t('orders.field.buyer')} / {t('orders.field.seller')}
              </>
            }
          />
        </>
      }
      actions
      row={(o) => (
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
            refundState
          />
          <Table.Td className="ps-actions">
            <Group gap={4} wrap="nowrap">
              <TextSeparated>
              <RowLink to={dialogs.open('history', o.id)} label={t('oversight.user.history')} item={o.orderNo} variant="default" />
              {o.product_type === 'share' && o.paid_at ? (
                <RowLink to={dialogs.open('reveals', o.id)} label={t('orders.reveals.button')} item={o.orderNo} variant="default" />
              ) : null}
              {isRefundable(o) ? (
                <RowLink to={dialogs.open('refund', o.orderNo)} label={t('orders.refund')} item={o.orderNo} color="red" />
              ) : o.refund_state === 'pending' || o.refund_state === 'failed' ? (
                <CheckRefundButton orderNo={o.orderNo} />
              ) : null}
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData)} />
      {history ? <HistoryDialog title={t('oversight.history.order', { item: history.item })} events={history.events} closeTo={dialogs.closed} /> : null}
      {reveals ? <RevealsDialog orderNo={reveals.orderNo} reveals={reveals.list} total={reveals.total} closeTo={dialogs.closed} /> : null}
      {toRefund ? (
        <ConfirmDialog
          title={t('orders.confirmRefundTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="refund"
          fields={{ orderNo: toRefund.orderNo }}
          confirmLabel={t('orders.refund')}
        >
          {t(toRefund.product_type === 'share' ? 'orders.confirmRefundText' : 'orders.confirmRefundProductText', {
            orderNo: toRefund.orderNo,
            product: toRefund.product_name,
            amount: yuan(toRefund.amount),
            method: t(paymentMethodLabel(toRefund.paymentMethod)),
            income: yuan(toRefund.seller_income ?? 0),
          })}
        </ConfirmDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
