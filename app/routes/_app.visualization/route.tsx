import chartsCss from '@mantine/charts/styles.css?url'
import { Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { lazy, type ReactNode, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { incomeApi, INCOME_DAYS_DEFAULT } from '#contract/income.ts'
import { SHARE_TYPES, sharesApi } from '#contract/shares.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'

// recharts is large: fetched only in the browser after hydration; the tables carry the numbers before
// (and stay for screen readers and pages without JavaScript).
const Charts = lazy(() => import('./charts.tsx'))

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: chartsCss }]

/**
 * SPEC §2 /visualization (issue 11, decision 088): the signed-in user's own data drawn — income of the
 * last 30 days, their most visited shares (visits against purchases), and their shares by type.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  try {
    const [daily, top, byType, title] = await Promise.all([
      api(request, incomeApi.daily, { token, query: { days: INCOME_DAYS_DEFAULT } }),
      api(request, sharesApi.list, { token, query: { pageSize: 8, sort: 'visit_count', order: 'desc' } }),
      Promise.all(SHARE_TYPES.map((type) => api(request, sharesApi.list, { token, query: { pageSize: 1, type } }).then((p) => ({ type, count: p.total })))),
      pageTitle(request, 'menu.visualization'),
    ])
    return {
      title,
      days: daily.list.map((d) => ({ day: d.day, income: d.income, orders: d.orders })),
      shares: top.list.map((s) => ({ title: s.title, unicode: s.unicode, visits: s.visit_count, purchases: s.purchase_count })),
      byType,
    }
  } catch (e) {
    return pageError(request, e)
  }
}

export type VisualizationData = Awaited<ReturnType<typeof loader>>

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

function Panel({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  )
}

export default function Visualization() {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const { days, shares, byType } = useLoaderData<typeof loader>()
  return (
    <Stack maw={1200}>
      <Title order={2}>{t('shell.visualization.title')}</Title>
      <Text c="dimmed">{t('shell.visualization.intro')}</Text>
      {hydrated ? (
        <Suspense fallback={null}>
          <Charts days={days} shares={shares} byType={byType} />
        </Suspense>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel id="viz-income" title={t('shell.visualization.income', { count: days.length })}>
          <Table.ScrollContainer minWidth={280} mah={320}>
            <Table striped stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('shell.visualization.day')}</Table.Th>
                  <Table.Th ta="right">{t('shell.visualization.incomeCol')}</Table.Th>
                  <Table.Th ta="right">{t('shell.visualization.orders')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days.map((d) => (
                  <Table.Tr key={d.day}>
                    <Table.Td>{d.day}</Table.Td>
                    <Table.Td ta="right">{yuan(d.income)}</Table.Td>
                    <Table.Td ta="right">{d.orders}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Panel>
        <Stack>
          <Panel id="viz-shares" title={t('shell.visualization.shares')}>
            {shares.length ? (
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('shell.visualization.share')}</Table.Th>
                    <Table.Th ta="right">{t('shell.visualization.visits')}</Table.Th>
                    <Table.Th ta="right">{t('shell.visualization.purchases')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shares.map((s) => (
                    <Table.Tr key={s.unicode}>
                      <Table.Td>{s.title}</Table.Td>
                      <Table.Td ta="right">{s.visits}</Table.Td>
                      <Table.Td ta="right">{s.purchases}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text c="dimmed">{t('shell.visualization.noShares')}</Text>
            )}
          </Panel>
          <Panel id="viz-types" title={t('shell.visualization.byType')}>
            <Table>
              <Table.Tbody>
                {byType.map((b) => (
                  <Table.Tr key={b.type}>
                    <Table.Th scope="row">{t(`shares.types.${b.type}`)}</Table.Th>
                    <Table.Td ta="right">{b.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Panel>
        </Stack>
      </SimpleGrid>
    </Stack>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
