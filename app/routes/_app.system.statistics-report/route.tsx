import chartsCss from '@mantine/charts/styles.css?url'
import { Anchor, Box, Button, Card, Group, Paper, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { linksApi, type SellerLinkRateRow } from '#contract/links.ts'
import { addDays, shanghaiDay } from '#contract/days.ts'
import { STATISTICS_TABS, statisticsApi, type StatisticsDay, statisticsRangeSchema } from '#contract/statistics.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { Pager } from '#app/components/lists/pager.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { type Column, formatRate, readStatisticsParams, STATISTICS_COLUMNS, type StatisticsParams } from '#app/components/statistics/columns.ts'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { api, ApiError } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { DateField } from '#app/components/forms/date-field.tsx'

// recharts is large: fetched only in the browser, after hydration; the tables carry the numbers before.
const StatisticsChart = lazy(() => import('#app/components/statistics/statistics-chart.tsx'))

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: chartsCss }]

type Row = Record<string, number | string | null> & { userId: number; username: string }
type TabData = { list: Row[]; total: number; pageNum: number; pageSize: number; from: string; to: string; totals: Record<string, number>; daily?: StatisticsDay[] }

/** SPEC §2 /system/statistics-report: the four SPEC §9 tabs, URL-driven (tabs, range, sort and pages are links and a GET form). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const params = readStatisticsParams(new URL(request.url))
  const title = await pageTitle(request, 'menu.statisticsReport')
  const today = shanghaiDay()
  const base = { title, today, params }
  const range = statisticsRangeSchema.safeParse({ from: params.from, to: params.to })
  if (!range.success) {
    const errors: Record<string, string> = {}
    for (const issue of range.error.issues) errors[String(issue.path[0])] ??= issue.message
    return { ...base, errors, data: null, linkRates: null }
  }
  try {
    const query = { from: params.from, to: params.to, sort: params.sort, order: params.order, pageNum: params.pageNum, pageSize: 20 }
    // One call per tab; their rows differ only in the figures (STATISTICS_COLUMNS says which).
    const data = (await api(request, statisticsApi[params.tab] as typeof statisticsApi.orders, { token, query: query as never })) as unknown as TabData
    const linkRates = await api(request, linksApi.sellerRates, { token })
    return { ...base, errors: null, data, linkRates: linkRates.list }
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) {
      const errors: Record<string, string> = {}
      for (const [k, v] of Object.entries(e.fieldErrors ?? {})) errors[k] = v[0] ?? e.msg
      return { ...base, errors, data: null, linkRates: null }
    }
    return pageError(request, e)
  }
}

type Params = StatisticsParams

/** A link to this page with some params changed (null removes one). */
function href(params: Params, change: Record<string, string | number | null>) {
  const p = new URLSearchParams()
  const merged: Record<string, string | number | null | undefined> = { tab: params.tab, from: params.from, to: params.to, sort: params.sort, order: params.order, pageNum: params.pageNum, ...change }
  for (const [k, v] of Object.entries(merged)) if (v !== null && v !== undefined && v !== '' && !(k === 'pageNum' && v === 1)) p.set(k, String(v))
  return `/system/statistics-report?${p}`
}

export default function StatisticsReport() {
  const { t } = useTranslation()
  const { params, data, errors, today, linkRates } = useLoaderData<typeof loader>()
  const csv = data ? `/system/statistics-report/csv?${new URLSearchParams({ tab: params.tab, from: data.from, to: data.to, sort: params.sort, order: params.order })}` : null
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('menu.statisticsReport')}</Title>
        {csv ? (
          <Button component="a" href={csv} download variant="light" data-testid="statistics-csv">
            {t('statistics.export')}
          </Button>
        ) : null}
      </Group>
      <Group gap="xs" component="nav" aria-label={t('statistics.tabsLabel')}>
        {STATISTICS_TABS.map((tab) => (
          <Button
            key={tab}
            component={Link}
            to={href(params, { tab, sort: null, order: null, pageNum: null })}
            variant={tab === params.tab ? 'filled' : 'default'}
            aria-current={tab === params.tab ? 'page' : undefined}
            size="sm"
          >
            {t(`statistics.tabs.${tab}`)}
          </Button>
        ))}
      </Group>
      <RangeForm params={params} errors={errors} today={today} shown={data ? { from: data.from, to: data.to } : null} />
      {data ? <TabBody params={params} data={data} /> : null}
      {linkRates ? <LinkRates rows={linkRates} /> : null}
    </Stack>
  )
}

/** Issue 25: the sellers whose links were found dead most often (all time, not the range above). */
function LinkRates({ rows }: { rows: SellerLinkRateRow[] }) {
  const { t } = useTranslation()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="statistics-link-rates">
      <Title order={3} size="h5" id="statistics-link-rates" mb="xs">
        {t('links.statistics.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('links.statistics.intro')}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm">{t('links.statistics.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={500}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('links.column.seller')}</Table.Th>
                <Table.Th ta="right">{t('links.page.rate')}</Table.Th>
                <Table.Th ta="right">{t('links.column.checks')}</Table.Th>
                <Table.Th ta="right">{t('links.state.dead')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.seller_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/system/user-manage/${r.seller_id}`} size="sm">
                      {r.user_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{(r.rate * 100).toFixed(1)}%</Table.Td>
                  <Table.Td ta="right">
                    {r.checks} ({r.dead_checks})
                  </Table.Td>
                  <Table.Td ta="right">
                    {r.dead_links} / {r.links}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  )
}

/** The date range as a GET form (works without JavaScript), with preset links. */
function RangeForm({ params, errors, today, shown }: { params: Params; errors: Record<string, string> | null; today: string; shown: { from: string; to: string } | null }) {
  const { t } = useTranslation()
  const error = (f: string) => (errors?.[f] ? t(errors[f]) : undefined)
  return (
    <Card withBorder padding="md">
      <Form method="get" aria-label={t('statistics.range.title')}>
        <input type="hidden" name="tab" value={params.tab} />
        <input type="hidden" name="sort" value={params.sort} />
        <input type="hidden" name="order" value={params.order} />
        <Group align="flex-start" gap="sm">
          <DateField name="from" label={t('statistics.range.from')} value={params.from ?? shown?.from} error={error('from')} />
          <DateField name="to" label={t('statistics.range.to')} value={params.to ?? shown?.to} error={error('to')} />
          <Button type="submit" variant="light" mt={25}>
            {t('statistics.range.apply')}
          </Button>
        </Group>
      </Form>
      <Group gap="md" mt="xs">
        <Text size="sm" c="dimmed">
          {t('statistics.range.hint')}
        </Text>
        {[7, 30, 90, 365].map((n) => (
          <Anchor key={n} component={Link} to={href(params, { from: addDays(today, 1 - n), to: today, pageNum: null })} size="sm">
            {t('statistics.range.last', { count: n })}
          </Anchor>
        ))}
      </Group>
    </Card>
  )
}

function cell(c: Column, v: unknown) {
  if (c.kind === 'yuan') return yuan(v as number)
  if (c.kind === 'rate') return formatRate(v as number | null)
  return String(v ?? 0)
}

function TabBody({ params, data }: { params: Params; data: TabData }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const columns = STATISTICS_COLUMNS[params.tab]
  const label = (c: Column) => t(`statistics.col.${params.tab}.${c.key}`)
  const figures = columns.filter((c) => !c.now)
  return (
    <>
      <Card withBorder padding="md" component="section" aria-labelledby="statistics-totals">
        <Title order={3} size="h5" id="statistics-totals" mb="xs">
          {t('statistics.totals', { from: data.from, to: data.to })}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: figures.length > 7 ? 5 : figures.length }} spacing="xs">
          {figures.map((c) => (
            <Box key={c.key}>
              <Text size="xs" c="dimmed">
                {label(c)}
              </Text>
              <Text fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {cell(c, data.totals[c.key])}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
      </Card>
      {hydrated && data.list.length > 0 ? (
        <Card withBorder padding="md" aria-hidden>
          <Suspense fallback={<Box h={260} />}>
            <StatisticsChart tab={params.tab} rows={data.list} daily={data.daily ?? []} />
          </Suspense>
        </Card>
      ) : null}
      <section aria-labelledby="statistics-table">
        <Title order={3} size="h5" id="statistics-table" mb="xs">
          {t('statistics.tableTitle', { tab: t(`statistics.tabs.${params.tab}`) })}
        </Title>
        {params.tab === 'sellers' ? (
          <Text size="sm" c="dimmed" mb="xs">
            {t('statistics.nowHint')}
          </Text>
        ) : null}
        <Table.ScrollContainer minWidth={columns.length * 90 + 160}>
          <Table striped highlightOnHover data-testid="statistics-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('statistics.col.user')}</Table.Th>
                {columns.map((c) => (
                  <SortHeader key={c.key} params={params} column={c} label={label(c)} />
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.list.map((r) => (
                <Table.Tr key={r.userId}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {r.username}
                    </Text>
                    <Text size="xs" c="dimmed">
                      #{r.userId}
                    </Text>
                  </Table.Td>
                  {columns.map((c) => (
                    <Table.Td key={c.key} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {cell(c, r[c.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data.list.length === 0 ? <Text c="dimmed">{t('statistics.empty')}</Text> : null}
        <Pager total={data.total} pageNum={data.pageNum} pageSize={data.pageSize} />
      </section>
      {data.daily ? <DailyTable days={data.daily} /> : null}
    </>
  )
}

/** A column header; a sortable one is a link (descending first, then ascending), with aria-sort. */
function SortHeader({ params, column, label }: { params: Params; column: Column; label: string }) {
  const { t } = useTranslation()
  if (!column.sortable) {
    return (
      <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
        {label}
        {column.now ? ' *' : null}
      </Table.Th>
    )
  }
  const active = params.sort === column.key
  const next = active && params.order === 'desc' ? 'asc' : 'desc'
  return (
    <Table.Th ta="right" aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'} style={{ whiteSpace: 'nowrap' }}>
      <Anchor component={Link} to={href(params, { sort: column.key, order: next, pageNum: null })} size="sm" fw={active ? 700 : 500} preventScrollReset>
        {label}
        {active ? (params.order === 'asc' ? ' ▲' : ' ▼') : null}
        <VisuallyHidden>{t(next === 'asc' ? 'statistics.sortAsc' : 'statistics.sortDesc')}</VisuallyHidden>
      </Anchor>
    </Table.Th>
  )
}

/** The comprehensive tab's days: the numbers its chart draws, always present. */
function DailyTable({ days }: { days: StatisticsDay[] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="statistics-daily">
      <Title order={3} size="h5" id="statistics-daily" mb="xs">
        {t('statistics.daily.title')}
      </Title>
      <Table.ScrollContainer minWidth={420} mah={360}>
        <Table striped stickyHeader data-testid="statistics-daily">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('statistics.daily.day')}</Table.Th>
              <Table.Th ta="right">{t('statistics.daily.orders')}</Table.Th>
              <Table.Th ta="right">{t('statistics.daily.gmv')}</Table.Th>
              <Table.Th ta="right">{t('statistics.daily.refunded')}</Table.Th>
              <Table.Th ta="right">{t('statistics.daily.newUsers')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...days].reverse().map((d) => (
              <Table.Tr key={d.day}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{d.day}</Table.Td>
                <Table.Td ta="right">{d.orders}</Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {yuan(d.gmv)}
                </Table.Td>
                <Table.Td ta="right">{d.refunded}</Table.Td>
                <Table.Td ta="right">{d.newUsers}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
