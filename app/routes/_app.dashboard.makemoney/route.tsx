import { Alert, Anchor, Badge, Button, Card, Group, Radio, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect, redirectDocument } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { type ChannelOffer, channelOpenSchema, channelsApi } from '#contract/channels.ts'
import { ORDER_NO_PATTERN } from '#contract/codes.ts'
import { formatYuan, formatYuanAmount } from '#contract/money.ts'
import { ordersApi, PAYMENT_METHODS, paymentMethodLabel, type PaymentStatusView } from '#contract/orders.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { apiMessage } from '#app/utils/api-message.ts'
import { formatDateTime } from '#app/utils/format.ts'

/** A time to the minute, Asia/Shanghai. */
const toMinute = (iso: string | null | undefined) => formatDateTime(iso).slice(0, 16)

/**
 * How earning works here, with the configured numbers (GET /api/channels/terms), the caller's fee rate
 * and open channels, and the channels they may open — each with a plain form that creates the order
 * and goes to the payment. Back from paying (`?order=`), the order's state.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  try {
    const [terms, channels] = await Promise.all([
      api(request, channelsApi.terms, { token }),
      api(request, channelsApi.list, { token, query: { pageSize: 100 } }),
    ])
    const orderNo = new URL(request.url).searchParams.get('order')
    let order: Pick<PaymentStatusView, 'orderNo' | 'payment_status' | 'product_name' | 'paymentMethod'> | null = null
    if (orderNo && ORDER_NO_PATTERN.test(orderNo)) {
      const status = await api(request, ordersApi.paymentStatus, { query: { orderNo } }).catch((e: unknown) => {
        // An unknown order number in the address: nothing to say about it.
        if (e instanceof ApiError && (e.status === 404 || e.status === 422)) return null
        throw e
      })
      if (status?.product_type === 'channel') order = { orderNo, payment_status: status.payment_status, product_name: status.product_name, paymentMethod: status.paymentMethod }
    }
    return { title: await pageTitle(request, 'menu.makemoney'), terms, channels, order }
  } catch (e) {
    return pageError(request, e)
  }
}

type Refusal = { channelId: number; error: string; values?: Record<string, string> }

/** The values a refusal's message names (amounts as ¥, the month), from the API's answer. */
function refusalValues(e: ApiError): Record<string, string> | undefined {
  const d = e.data as { minimum_income?: number; last_month_income?: number; last_month?: string } | null
  if (!d || d.minimum_income === undefined) return undefined
  return { minimum: formatYuanAmount(d.minimum_income), income: formatYuanAmount(d.last_month_income ?? 0), month: d.last_month ?? '' }
}

/**
 * POST: open a channel (POST /api/channels/open). Alipay and the sandbox: their pay page; WeChat: our
 * QR page (/pay/<orderNo>, a page of its own, loaded whole). A refusal is stated on the channel's card.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const form = await readForm(request, ['open'])
  const channelId = Number(form.get('id')) || 0
  const parsed = channelOpenSchema.safeParse({ id: form.get('id'), paymentMethod: form.get('paymentMethod') })
  if (!parsed.success) return data<Refusal>({ channelId, error: 'channels.make.chooseMethod' }, { status: 400 })
  try {
    const created = await api(request, channelsApi.open, { token, body: parsed.data })
    if (parsed.data.paymentMethod === 'WeChat' || !created.payUrl) return redirectDocument(`/pay/${created.orderNo}`)
    return redirect(created.payUrl)
  } catch (e) {
    const values = e instanceof ApiError ? refusalValues(e) : undefined
    const error = await rowError(request, e, ['orders.gatewayError'])
    return data<Refusal>({ channelId, error: error === 'orders.gatewayError' ? 'channels.make.gatewayError' : error, ...(values ? { values } : {}) }, { status: 400 })
  }
}

function Term({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md" component="section">
      <Text fw={600} mb={6}>
        {title}
      </Text>
      <Stack gap={4}>{children}</Stack>
    </Card>
  )
}

/** The state of the channel order the buyer comes back with (`?order=`). */
function OrderNotice({ order, offers }: { order: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['order']>; offers: ChannelOffer[] }) {
  const { t } = useTranslation()
  const name = order.product_name
  if (order.payment_status === 'Completed') {
    const until = offers.find((o) => o.name === name)?.open_until
    return (
      <Alert color="green" role="status" title={until ? t('channels.make.paid', { name, date: toMinute(until) }) : t('channels.make.paidNoPeriod', { name })} />
    )
  }
  if (order.payment_status === 'Pending') {
    return (
      <Alert color="blue" role="status" title={t('channels.make.waiting', { name })}>
        <Group gap="md">
          <Anchor href={`/dashboard/makemoney?order=${order.orderNo}`} size="sm">
            {t('channels.make.checkAgain')}
          </Anchor>
          <Anchor href={`/pay/${order.orderNo}`} size="sm">
            {t('channels.make.continuePay')}
          </Anchor>
        </Group>
      </Alert>
    )
  }
  return <Alert color={order.payment_status === 'Refund' ? 'grape' : 'gray'} role="status" title={t(order.payment_status === 'Refund' ? 'channels.make.refunded' : 'channels.make.failed', { name })} />
}

function ChannelCard({ offer, refusal, lastMonthIncome }: { offer: ChannelOffer; refusal?: Refusal; lastMonthIncome: number }) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST' && navigation.formData?.get('id') === String(offer.id)
  const price = formatYuanAmount(offer.price)
  const titleId = `channel-${offer.id}-title`
  const rows: [string, string][] = [
    [t('channels.make.price'), price],
    [t('channels.make.duration'), t('channels.days', { count: offer.service_duration })],
    [t('channels.make.minimumIncome'), offer.minimum_income > 0 ? formatYuanAmount(offer.minimum_income) : t('channels.make.noMinimum')],
  ]
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId} data-testid={`channel-${offer.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={4} id={titleId}>
            {offer.name}
          </Title>
          <Badge size="lg" variant="light" style={{ flexShrink: 0 }}>
            {t('channels.percent', { rate: offer.fee_rate })}
          </Badge>
        </Group>
        {offer.open_until ? (
          <Badge color="green" variant="light" style={{ alignSelf: 'flex-start', textTransform: 'none' }}>
            {t('channels.make.openUntil', { date: toMinute(offer.open_until) })}
          </Badge>
        ) : null}
        <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th fw={400} c="dimmed" w="55%">
                  {label}
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {!offer.eligible ? (
          <Text size="sm" c="orange.8">
            {t('channels.make.notEligible', { minimum: formatYuanAmount(offer.minimum_income), income: formatYuanAmount(lastMonthIncome) })}
          </Text>
        ) : null}
        <Form method="post" preventScrollReset>
          <input type="hidden" name="id" value={offer.id} />
          <Stack gap="sm">
            <Radio.Group name="paymentMethod" label={t('channels.make.payWith')} defaultValue="Alipay">
              <Group mt={4}>
                {PAYMENT_METHODS.map((m) => (
                  <Radio key={m} value={m} label={t(paymentMethodLabel(m))} id={`channel-${offer.id}-${m}`} />
                ))}
              </Group>
            </Radio.Group>
            {offer.open_until ? (
              <Text size="xs" c="dimmed">
                {t('channels.make.extendNote', { days: t('channels.days', { count: offer.service_duration }) })}
              </Text>
            ) : null}
            {refusal ? (
              <Alert color="red" variant="light" role="alert">
                <Text size="sm">{apiMessage(t, refusal.error, refusal.values)}</Text>
              </Alert>
            ) : null}
            <Button type="submit" name="intent" value="open" loading={pending} aria-label={`${t(offer.open_until ? 'channels.make.extend' : 'channels.make.open', { price })} ${offer.name}`}>
              {t(offer.open_until ? 'channels.make.extend' : 'channels.make.open', { price })}
            </Button>
          </Stack>
        </Form>
      </Stack>
    </Card>
  )
}

export default function MakeMoney() {
  const { t } = useTranslation()
  const { terms, channels, order } = useLoaderData<typeof loader>()
  const refusal = useActionData<typeof action>()
  const { account } = channels
  const exampleFeeFen = Math.round(terms.default_fee_rate * 100)
  const money = (yuan: number) => formatYuanAmount(yuan)
  return (
    <Stack maw={1100}>
      <Title order={2}>{t('menu.makemoney')}</Title>
      <Text c="dimmed">{t('channels.make.intro')}</Text>
      {order ? <OrderNotice order={order} offers={channels.list} /> : null}

      <Title order={3}>{t('channels.make.howTitle')}</Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Term title={t('channels.make.feeTitle')}>
          <Text size="sm">{t('channels.make.feeText', { rate: terms.default_fee_rate })}</Text>
          <Text size="sm">
            {t('channels.make.feeExample', { rate: terms.default_fee_rate, fee: formatYuan(exampleFeeFen), income: formatYuan(10000 - exampleFeeFen) })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('channels.make.feeFixed')}
          </Text>
        </Term>
        <Term title={t('channels.make.settleTitle')}>
          <Text size="sm">
            {terms.settlement_delay_hours > 0
              ? t('channels.make.settleText', { delay: delayText(t, terms.settlement_delay_hours) })
              : t('channels.make.settleTextNow')}
          </Text>
        </Term>
        <Term title={t('channels.make.withdrawTitle')}>
          <Text size="sm">
            {t('channels.make.withdrawText', {
              minimum: money(terms.withdrawal_minimum),
              rate: terms.withdrawal_fee_rate,
              feeMinimum: money(terms.withdrawal_fee_minimum),
            })}
          </Text>
        </Term>
      </SimpleGrid>

      <Card withBorder padding="lg" component="section" aria-labelledby="standing-title">
        <Title order={4} id="standing-title" mb="sm">
          {t('channels.make.standingTitle')}
        </Title>
        <Group gap="xl" mb="md" align="flex-start">
          <div>
            <Text size="sm" c="dimmed">
              {t('channels.make.currentRate')}
            </Text>
            <Text size="xl" fw={700} data-testid="current-fee-rate">
              {t('channels.percent', { rate: account.fee_rate })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('channels.make.defaultRate')}: {t('channels.percent', { rate: account.default_fee_rate })}
            </Text>
          </div>
          <div>
            <Text size="sm" c="dimmed">
              {t('channels.make.lastMonthIncome', { month: account.last_month })}
            </Text>
            <Text size="xl" fw={700}>
              {money(account.last_month_income)}
            </Text>
          </div>
        </Group>
        <Text fw={600} size="sm" mb={4}>
          {t('channels.make.openChannels')}
        </Text>
        {account.open.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('channels.make.noOpenChannels')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="open-channels" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {account.open.map((p) => (
              <li key={`${p.channel_id}-${p.starts_at}`}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={500}>
                    {p.name}
                  </Text>
                  <Badge variant="light" style={{ textTransform: 'none' }}>
                    {t('channels.percent', { rate: p.fee_rate })}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {t('channels.make.period', { from: toMinute(p.starts_at), to: toMinute(p.ends_at) })}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Card>

      <Title order={3}>{t('channels.make.channelsTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('channels.make.channelsText')}
      </Text>
      {channels.list.length === 0 ? (
        <Text c="dimmed">{t('channels.make.noChannels')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {channels.list.map((offer) => (
            <ChannelCard key={offer.id} offer={offer} lastMonthIncome={account.last_month_income} refusal={refusal?.channelId === offer.id ? refusal : undefined} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

/** The settlement delay in words: hours (24 by default), or minutes or seconds when it is set shorter. */
function delayText(t: TFunction, hours: number): string {
  if (hours >= 1) return t('channels.make.delayHours', { count: Math.round(hours * 100) / 100 })
  if (hours * 60 >= 1) return t('channels.make.delayMinutes', { count: Math.round(hours * 60) })
  return t('channels.make.delaySeconds', { count: Math.round(hours * 3600) })
}
