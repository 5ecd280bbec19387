import { Alert, Anchor, Badge, Button, Card, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { orderNoSchema, ordersApi, PAYMENT_METHODS, type PaymentStatusView } from '#contract/orders.ts'
import { type Package, packagesApi } from '#contract/packages.ts'
import { subscriptionsApi } from '#contract/subscriptions.ts'
import { idSchema } from '#contract/users.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, useIsPending } from '#app/components/forms/fields.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { formatDateTime } from '#app/utils/format.ts'

/**
 * The packages on sale and a buy form for each (DESIGN §3 Packages). Paying returns here with
 * `?order=<orderNo>`: the order's outcome is shown, and while it waits for the gateway the page looks
 * again every second (SPEC §4 polling; a meta refresh, so also without JavaScript).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const asked = orderNoSchema.safeParse(new URL(request.url).searchParams.get('order'))
  try {
    const [page, mine, order] = await Promise.all([
      api(request, packagesApi.list, { token, query: { pageSize: 100 } }),
      api(request, subscriptionsApi.list, { token, query: { status: 'opened', pageSize: 100 } }),
      asked.success
        ? api(request, ordersApi.paymentStatus, { query: { orderNo: asked.data } }).catch((e: unknown) => {
            if (e instanceof ApiError && e.status === 404) return 'unknown' as const
            throw e
          })
        : null,
    ])
    // The open subscription of each package: "yours until …", and buying again extends it.
    const openUntil: Record<number, string> = {}
    for (const s of mine.list) openUntil[s.package_id] = s.expires_at
    return { title: await pageTitle(request, 'menu.packages'), packages: page.list, openUntil, order: order === null ? null : order === 'unknown' ? ('unknown' as const) : orderView(order) }
  } catch (e) {
    return pageError(request, e)
  }
}

/** What the page shows of a returned order; where to pay while it is pending (Alipay page, else our pay page). */
function orderView(o: PaymentStatusView) {
  const payAt = o.payment_status !== 'Pending' ? null : o.paymentMethod === 'WeChat' || !o.checkout_url ? `/pay/${o.orderNo}` : o.checkout_url
  return { orderNo: o.orderNo, status: o.payment_status, payAt }
}

const buySchema = z.object({ id: idSchema, paymentMethod: z.enum(PAYMENT_METHODS, { error: 'validation.paymentMethod' }) })

/** POST /api/packages/buy, then to the gateway: Alipay's pay page (payUrl), or our pay page for a WeChat QR code. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const form = await readForm(request, [/^buy-\d+$/])
  const id = String(form.get('id') ?? '')
  const parsed = buySchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) return data({ id, error: parsed.error.issues[0]?.message ?? 'errors.badRequest' }, { status: 400 })
  try {
    const created = await api(request, packagesApi.buy, { token, body: parsed.data })
    return redirect(created.payUrl ?? `/pay/${created.orderNo}`)
  } catch (e) {
    return data({ id, error: await rowError(request, e, ['orders.gatewayError']) }, { status: 400 })
  }
}

function OrderStatus({ order }: { order: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['order']> }) {
  const { t } = useTranslation()
  if (order === 'unknown') return <Alert color="gray">{t('subscriptions.order.unknown')}</Alert>
  const color = order.status === 'Completed' ? 'green' : order.status === 'Pending' ? 'blue' : 'orange'
  return (
    <Alert color={color} role="status">
      <Text size="sm">{t(`subscriptions.order.${order.status}`)}</Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {t('subscriptions.order.orderNo', { orderNo: order.orderNo })}
      </Text>
      {order.status === 'Completed' ? (
        <Anchor component={Link} to="/subscription-manage/subscription-list" size="sm">
          {t('menu.mySubscriptions')}
        </Anchor>
      ) : null}
      {order.payAt ? (
        <Group gap="md" mt={4}>
          <Anchor href={order.payAt} size="sm">
            {t('subscriptions.order.payAgain')}
          </Anchor>
          <Anchor component={Link} to={`?order=${order.orderNo}`} size="sm" reloadDocument>
            {t('subscriptions.order.checkAgain')}
          </Anchor>
        </Group>
      ) : null}
    </Alert>
  )
}

function PackageCard({ pkg, until, error }: { pkg: Package; until?: string; error?: string }) {
  const { t } = useTranslation()
  const titleId = useId()
  const pending = useIsPending({ intent: `buy-${pkg.id}` })
  const price = yuan(pkg.price)
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4" id={titleId}>
            {pkg.name}
          </Title>
          {until ? (
            <Badge color="green" variant="light" style={{ flexShrink: 0 }}>
              {t('subscriptions.tags.opened')}
            </Badge>
          ) : null}
        </Group>
        <Text fw={700} size="xl">
          {price}
        </Text>
        <Text size="sm">{t('subscriptions.buy.perDay', { count: pkg.download_limit })}</Text>
        <Text size="sm" c="dimmed">
          {t('subscriptions.buy.forDays', { count: pkg.duration_days })}
        </Text>
        {until ? (
          <Text size="sm" c="green">
            {t('subscriptions.buy.yoursUntil', { date: formatDateTime(until) })}
          </Text>
        ) : null}
        <Form method="post">
          <input type="hidden" name="id" value={pkg.id} />
          <Stack gap="xs" mt="xs">
            <Radio.Group name="paymentMethod" label={t('subscriptions.buy.payWith')} defaultValue="Alipay">
              <Group mt={4}>
                <Radio value="Alipay" label={t('public.alipay')} />
                <Radio value="WeChat" label={t('public.wechat')} />
              </Group>
            </Radio.Group>
            <FormErrors errors={error ? [error] : undefined} />
            <Button type="submit" name="intent" value={`buy-${pkg.id}`} loading={pending}>
              {until ? t('subscriptions.buy.extend', { price }) : t('subscriptions.buy.buy', { price })}
            </Button>
          </Stack>
        </Form>
      </Stack>
    </Card>
  )
}

export default function Packages() {
  const { t } = useTranslation()
  const { packages, openUntil, order } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack>
      <Title order={2}>{t('menu.packages')}</Title>
      {order ? <OrderStatus order={order} /> : null}
      <Text size="sm" c="dimmed" maw={760}>
        {t('subscriptions.buy.intro')}
      </Text>
      {packages.length === 0 ? <Text c="dimmed">{t('subscriptions.buy.none')}</Text> : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {packages.map((p) => (
          <PackageCard key={p.id} pkg={p} until={openUntil[p.id]} error={actionData && actionData.id === String(p.id) ? actionData.error : undefined} />
        ))}
      </SimpleGrid>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const tags: ReturnType<MetaFunction> = [{ title: data?.title ?? 'PayShare' }]
  // SPEC §4: while the order waits for its payment, look again every second.
  if (data?.order && data.order !== 'unknown' && data.order.status === 'Pending') tags.push({ httpEquiv: 'refresh', content: '1' })
  return tags
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
