import { Alert, Anchor, Button, Group, List, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { oversightApi } from '#contract/oversight.ts'
import { idSchema } from '#contract/users.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, useIsPending, rowErrors } from '#app/components/forms/fields.tsx'
import { RevealsTable } from '#app/components/orders/reveals.tsx'
import { PartyOrderTable, SellerShareTable } from '#app/components/oversight/tables.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'

const parseId = (raw: string | undefined) => {
  const id = idSchema.safeParse(raw)
  if (!id.success) throw data({ msg: 'errors.notFound' }, { status: 404 })
  return id.data
}

/** The preview of "ban seller and refund buyers" (decision 067): a page of its own, so it works without JavaScript. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const id = parseId(params.id)
  try {
    const preview = await api(request, oversightApi.fraudPreview, { token, query: { id } })
    return { title: `${preview.seller.user_name} - ${await pageTitle(request, 'oversight.fraud.title')}`, preview }
  } catch (e) {
    return pageError(request, e)
  }
}

/** Does it, in one step; a run stopped half-way (a gateway refused) says so here and may be run again. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const id = parseId(params.id)
  const form = await readForm(request, ['fraud'])
  if (form.get('intent') !== 'fraud' || form.get('confirm') !== 'true') return data({ error: 'errors.badRequest' }, { status: 400 })
  let result
  try {
    result = await api(request, oversightApi.fraudAction, { token, body: { id, confirm: true } })
  } catch (e) {
    return rowRefusal(request, e, {}, ['oversight.fraud.interrupted'])
  }
  return redirectWithToast(request, `/system/user-manage/${id}`, {
    type: 'success',
    key: 'oversight.fraud.doneToast',
    values: { count: String(result.refunded.length), shares: String(result.shares_taken_down) },
  })
}

export default function FraudPreviewPage() {
  const { t } = useTranslation()
  const { preview: p } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pending = useIsPending({ intent: 'fraud' })
  const back = `/system/user-manage/${p.seller.id}`
  const nothingLeft = p.seller.is_banned === 1 && p.shares.length === 0 && p.order_count === 0
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to={back} size="sm">
          ← {p.seller.user_name}
        </Anchor>
        <Title order={2}>{t('oversight.fraud.title')}</Title>
      </Stack>
      <Alert color="red" variant="light" title={t('oversight.fraud.whatTitle', { name: p.seller.user_name })}>
        <List size="sm" spacing={4}>
          <List.Item>{p.seller.is_banned ? t('oversight.fraud.alreadyBanned') : t('oversight.fraud.willBan')}</List.Item>
          <List.Item>{t('oversight.fraud.willTakeDown', { count: p.shares.length })}</List.Item>
          <List.Item>
            {t('oversight.fraud.willRefund', { count: p.order_count, total: yuan(p.total), days: p.window_days, since: formatDateTime(p.since) })}
          </List.Item>
        </List>
      </Alert>
      {p.run && p.run.state !== 'done' ? (
        <Alert color="orange" variant="light" role="status" title={t(`oversight.fraud.run.${p.run.state}`)}>
          {t('oversight.fraud.run.progress', { count: p.run.refunded_count, total: yuan(p.run.refunded_total) })}
          {p.run.last_error ? ` ${t(p.run.last_error, { defaultValue: p.run.last_error })}` : ''}
        </Alert>
      ) : null}

      <Stack gap="xs">
        <Title order={3}>{t('oversight.fraud.sharesTitle', { count: p.shares.length })}</Title>
        <SellerShareTable shares={p.shares} />
      </Stack>

      <Stack gap="xs">
        <Title order={3}>{t('oversight.fraud.ordersTitle', { count: p.order_count })}</Title>
        <PartyOrderTable
          orders={p.orders}
          other="buyer"
          more={[{ head: t('orders.field.paidAt'), cell: (o) => formatDateTime(o.paid_at) }]}
          minWidth={720}
          footer={
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={3}>{t('oversight.fraud.total')}</Table.Th>
                <Table.Th colSpan={2} data-testid="fraud-total">
                  {yuan(p.total)}
                </Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          }
        />
        {p.order_count > p.orders.length ? (
          <Text size="sm" c="dimmed">
            {t('oversight.fraud.more', { shown: p.orders.length, count: p.order_count })}
          </Text>
        ) : null}
      </Stack>

      <Stack gap="xs">
        <Title order={3}>{t('oversight.fraud.revealsTitle', { count: p.reveals.total })}</Title>
        <Text size="sm" c="dimmed">
          {t('oversight.fraud.revealsExplain')}
        </Text>
        <RevealsTable reveals={p.reveals.list} total={p.reveals.total} withOrder />
      </Stack>

      <FormErrors errors={rowErrors(actionData)} />
      <Form method="post">
        <input type="hidden" name="confirm" value="true" />
        <Group>
          <Button component={Link} to={back} variant="default">
            {t('common.cancel')}
          </Button>
          <Button type="submit" name="intent" value="fraud" color="red" loading={pending} disabled={nothingLeft}>
            {p.run && p.run.state !== 'done' ? t('oversight.fraud.resume') : t('oversight.fraud.doIt', { count: p.order_count, total: yuan(p.total) })}
          </Button>
        </Group>
        {nothingLeft ? (
          <Text size="sm" c="dimmed" mt="xs">
            {t('oversight.fraud.nothingLeft')}
          </Text>
        ) : null}
      </Form>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
