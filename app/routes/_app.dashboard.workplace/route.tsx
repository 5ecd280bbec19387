import { Anchor, Badge, Box, Button, Card, Group, List, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useInViewport } from '@mantine/hooks'
import { lazy, startTransition, Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { incomeApi, INCOME_DAYS_DEFAULT } from '#contract/income.ts'
import { ordersApi } from '#contract/orders.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { IncomeDayTable, IncomeFigures, SettleState } from '#app/components/income/income.tsx'
import { PaymentStatusBadge, yuan } from '#app/components/shares/cells.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { TextSep } from '#app/components/layout/text-mode.tsx'

// recharts is large: fetched only in the browser, once the chart's place scrolls into view after
// hydration (below the fold on a phone, so a first visit does not parse it; decision 145), with its
// stylesheet; the table carries the numbers before.
const IncomeChart = lazy(() => import('#app/components/income/income-chart.tsx'))

/**
 * The landing page after login: the seller's income (SPEC §3 Dashboard figures, the last 30 days, the
 * latest orders), quick links, and the getting-started checklist from the account's real state until
 * it is done.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, token } = await requireUser({ request, context })
  const steps = [
    { key: 'phone', done: Boolean(user.phone), to: '/user/setting#security-phone' },
    { key: 'terms', done: Boolean(user.terms_agreed_at), to: '/agreement/exemptionagree' },
    { key: 'alipay', done: Boolean(user.alipayAccount && user.alipayRealName), to: '/user/setting#alipay' },
  ]
  try {
    const [summary, daily, recent, title] = await Promise.all([
      api(request, incomeApi.summary, { token }),
      api(request, incomeApi.daily, { token, query: { days: INCOME_DAYS_DEFAULT } }),
      api(request, ordersApi.sellerList, { token, query: { pageSize: 5 } }),
      pageTitle(request, 'menu.workplace'),
    ])
    return { title, userName: user.user_name, steps, summary, days: daily.list, recent: recent.list }
  } catch (e) {
    return pageError(request, e)
  }
}

export default function Workplace() {
  const { t } = useTranslation()
  const { userName, steps, summary, days, recent } = useLoaderData<typeof loader>()
  return (
    <Stack maw={1200}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2}>{t('pages.workplace.hello', { name: userName })}</Title>
        <QuickLinks />
      </Group>
      <Checklist steps={steps} />
      <section aria-labelledby="income-figures">
        <Title order={3} size="h4" id="income-figures" mb="sm">
          {t('income.figures.title')}
        </Title>
        <IncomeFigures summary={summary} />
      </section>
      <DailyIncome days={days} />
      <RecentOrders orders={recent} />
    </Stack>
  )
}

/** Publish a share, withdraw, and the income orders. */
function QuickLinks() {
  const { t } = useTranslation()
  return (
    <Group gap="xs" component="nav" aria-label={t('income.links.title')}>
      <Button component={Link} to="/share-manage/new" size="sm">
        {t('income.links.publish')}
      </Button>
      <TextSep />
      <Button component={Link} to="/dashboard/withdrawal" size="sm" variant="light">
        {t('income.links.withdraw')}
      </Button>
      <TextSep />
      <Button component={Link} to="/share-manage/order-list" size="sm" variant="subtle">
        {t('income.links.orders')}
      </Button>
    </Group>
  )
}

/** The chart (after hydration) over the table of the same numbers, which is all there is without JavaScript. */
function DailyIncome({ days }: { days: { day: string; income: number; orders: number }[] }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const empty = days.every((d) => d.income === 0 && d.orders === 0)
  // Seen once, the chart stays.
  const { ref, inViewport } = useInViewport()
  const [seen, setSeen] = useState(false)
  useEffect(() => {
    // A transition: recharts' first render yields to the browser instead of blocking it (issue 24).
    if (inViewport) startTransition(() => setSeen(true))
  }, [inViewport])
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="income-daily">
      <Title order={3} size="h4" id="income-daily" mb="sm">
        {t('income.chart.title', { count: days.length })}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed" mb="sm">
          {t('income.chart.empty', { count: days.length })}
        </Text>
      ) : null}
      {!empty ? (
        <Box mb="md" aria-hidden ref={ref} className="ps-chart-slot">
          {hydrated && seen ? (
            <Suspense fallback={<Box h={240} />}>
              <IncomeChart days={days} />
            </Suspense>
          ) : null}
        </Box>
      ) : null}
      <Text component="h4" size="sm" fw={600} mb={4}>
        {t('income.chart.table')}
      </Text>
      <IncomeDayTable days={days} />
    </Card>
  )
}

type RecentOrder = ReturnType<typeof useLoaderData<typeof loader>>['recent'][number]

/**
 * The seller's latest five orders. Narrow enough for a phone: the time under the product, and one
 * status cell — a completed sale says whether its income has settled and when; other orders their
 * payment status.
 */
function RecentOrders({ orders }: { orders: RecentOrder[] }) {
  const { t } = useTranslation()
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="income-recent">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="income-recent">
          {t('income.recent.title')}
        </Title>
        <Anchor component={Link} to="/share-manage/order-list" size="sm">
          {t('income.recent.all')}
        </Anchor>
      </Group>
      {orders.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('income.recent.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.field.product')}</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  {t('orders.field.amount')}
                </Table.Th>
                <Table.Th ta="right">{t('orders.field.income')}</Table.Th>
                <Table.Th>{t('orders.field.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td miw={110}>
                    <Text size="sm" lineClamp={2} title={o.product_name}>
                      {o.product_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(o.created_at)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {yuan(o.amount)}
                  </Table.Td>
                  <Table.Td ta="right">{yuan(o.seller_income)}</Table.Td>
                  <Table.Td>{o.payment_status === 'Completed' && o.settle_at ? <SettleState order={o} /> : <PaymentStatusBadge status={o.payment_status} />}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  )
}

/** Getting started, from the account's real state; one line once every step is done. */
function Checklist({ steps }: { steps: { key: string; done: boolean; to: string }[] }) {
  const { t } = useTranslation()
  const remaining = steps.filter((s) => !s.done).length
  if (remaining === 0) {
    return (
      <Text size="sm" c="dimmed">
        ✓ {t('pages.workplace.checklist')}: {t('pages.workplace.allDone')}
      </Text>
    )
  }
  return (
    <Card withBorder padding="lg" maw={760}>
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('pages.workplace.checklist')}</Title>
        <Badge color="orange" variant="light">
          {t('pages.workplace.remaining', { count: remaining })}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t('pages.workplace.intro')}
      </Text>
      <List spacing="md" listStyleType="none" p={0}>
        {steps.map((s) => (
          <List.Item
            key={s.key}
            data-testid={`step-${s.key}`}
            data-done={s.done}
            icon={
              <ThemeIcon component="span" color={s.done ? 'green' : 'gray'} radius="xl" size={22} aria-hidden>
                {s.done ? '✓' : '·'}
              </ThemeIcon>
            }
          >
            {/* Spans: Mantine puts an item's content in a <span>, where only phrasing content may go. */}
            <Group gap="xs" component="span">
              <Text fw={500} component="span">
                {t(`pages.workplace.steps.${s.key}.title`)}
              </Text>{' '}
              <Text size="sm" component="span" c={s.done ? 'var(--mantine-color-green-light-color)' : 'var(--mantine-color-orange-light-color)'}>
                {s.done ? t('pages.workplace.done') : t('pages.workplace.todo')}
              </Text>
            </Group>{' '}
            <Text size="sm" c="dimmed" component="span" display="block">
              {t(`pages.workplace.steps.${s.key}.text`)}{' '}
              {!s.done ? (
                <Anchor component={Link} to={s.to} size="sm" underline="always">
                  {t(`pages.workplace.steps.${s.key}.action`)}
                </Anchor>
              ) : null}
            </Text>
          </List.Item>
        ))}
      </List>
    </Card>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
