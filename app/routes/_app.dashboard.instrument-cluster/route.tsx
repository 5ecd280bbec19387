import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type Cluster, statisticsApi } from '#contract/statistics.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'

/** The admin's queues: where each count is worked off (the report and appeal pages are issue 9 A's). */
const QUEUES = [
  { key: 'sharesUnderReview', to: '/system/share-manage?status=under_review' },
  { key: 'openReports', to: '/system/report-manage' },
  { key: 'pendingAppeals', to: '/system/appeal-manage' },
  { key: 'pendingWithdrawals', to: '/system/withdrawal-manage?status=Pending' },
] as const satisfies readonly { key: keyof Cluster; to: string }[]

/** SPEC §2 /dashboard/instrument-cluster (admin): the platform at a glance, one API call (decision 073). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  try {
    const [cluster, title] = await Promise.all([api(request, statisticsApi.cluster, { token }), pageTitle(request, 'menu.instrumentCluster')])
    return { title, cluster }
  } catch (e) {
    return pageError(request, e)
  }
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Card>
  )
}

export default function InstrumentCluster() {
  const { t } = useTranslation()
  const { cluster: c } = useLoaderData<typeof loader>()
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={2}>{t('menu.instrumentCluster')}</Title>
        <Button component={Link} to="/system/statistics-report" variant="light" size="sm">
          {t('statistics.cluster.statistics')}
        </Button>
      </Group>
      <section aria-labelledby="cluster-figures">
        <Title order={3} size="h4" id="cluster-figures">
          {t('statistics.cluster.title')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('statistics.cluster.asOf', { day: c.today })}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Figure label={t('statistics.cluster.gmvToday')} value={yuan(c.gmvToday)} />
          <Figure label={t('statistics.cluster.ordersToday')} value={String(c.ordersToday)} />
          <Figure label={t('statistics.cluster.gmvMonth')} value={yuan(c.gmvMonth)} />
          <Figure label={t('statistics.cluster.ordersMonth')} value={String(c.ordersMonth)} />
          <Figure label={t('statistics.cluster.newUsersToday')} value={String(c.newUsersToday)} />
          <Figure label={t('statistics.cluster.newUsersMonth')} value={String(c.newUsersMonth)} />
          <Figure label={t('statistics.cluster.activeSellers')} value={String(c.activeSellers)} hint={t('statistics.cluster.activeSellersHint')} />
        </SimpleGrid>
      </section>
      <section aria-labelledby="cluster-queues">
        <Title order={3} size="h4" id="cluster-queues" mb="sm">
          {t('statistics.cluster.queues')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {QUEUES.map((q) => (
            <Card key={q.key} withBorder padding="md">
              <Group justify="space-between" align="flex-start">
                <Text size="sm" c="dimmed">
                  {t(`statistics.cluster.${q.key}`)}
                </Text>
                {c[q.key] > 0 ? (
                  <Badge color="orange" variant="light">
                    {c[q.key]}
                  </Badge>
                ) : null}
              </Group>
              <Text fz={26} fw={700}>
                {c[q.key]}
              </Text>
              <Anchor component={Link} to={q.to} size="sm" data-testid={`queue-${q.key}`}>
                {t('statistics.cluster.open')} →<VisuallyHidden> {t(`statistics.cluster.${q.key}`)}</VisuallyHidden>
              </Anchor>
            </Card>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
