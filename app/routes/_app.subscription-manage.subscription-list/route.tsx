import { Anchor, Card, Group, Stack, Table, Text } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { subscriptionListQuerySchema, subscriptionsApi } from '#contract/subscriptions.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { DateTimeCell } from '#app/components/shares/shares.tsx'
import { SubscriptionTagBadge } from '#app/components/subscriptions/subscriptions.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const query = listQuery(request, subscriptionListQuerySchema, [])
  try {
    const page = await api(request, subscriptionsApi.list, { token, query })
    return { title: await pageTitle(request, 'menu.mySubscriptions'), page }
  } catch (e) {
    return pageError(request, e)
  }
}

/** Today's free unlocks (the highest daily limit of the open subscriptions, decision 054) and how to use them. */
function Today({ limit, remaining }: { limit: number; remaining: number }) {
  const { t } = useTranslation()
  return (
    <Card withBorder padding="md" maw={760}>
      <Stack gap={6}>
        <Text fw={600} data-testid="unlocks-today">
          {limit > 0 ? t('subscriptions.mine.today', { remaining, limit }) : t('subscriptions.mine.todayNone')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('subscriptions.mine.howTo')}
        </Text>
        <Group>
          <Anchor component={Link} to="/subscription-manage/package-list" size="sm">
            {t('subscriptions.mine.buyPackage')}
          </Anchor>
        </Group>
      </Stack>
    </Card>
  )
}

/** My subscriptions (SPEC §2): opened / expired tags, expiry, and today's remaining free unlocks. */
export default function MySubscriptions() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <ListPage
      title={t('menu.mySubscriptions')}
      filters={<Today limit={page.daily_limit} remaining={page.remaining_today} />}
      page={page}
      minWidth={720}
      head={[
        t('subscriptions.field.package'),
        t('subscriptions.field.status'),
        { label: t('subscriptions.field.downloadLimit'), right: true },
        { label: t('subscriptions.field.remainingToday'), right: true },
        t('subscriptions.field.startsAt'),
        t('subscriptions.field.expiresAt'),
      ]}
      row={(s) => (
        <Table.Tr key={s.id}>
          <Table.Td miw={160} maw={280}>
            <Text size="sm" lineClamp={2} title={s.product_name}>
              {s.product_name}
            </Text>
          </Table.Td>
          <Table.Td>
            <SubscriptionTagBadge tag={s.status} />
          </Table.Td>
          <Table.Td ta="right">{s.download_limit}</Table.Td>
          <Table.Td ta="right">{s.status === 'opened' ? s.remaining_today : '—'}</Table.Td>
          <Table.Td>
            <DateTimeCell iso={s.starts_at} />
          </Table.Td>
          <Table.Td>
            <DateTimeCell iso={s.expires_at} />
          </Table.Td>
        </Table.Tr>
      )}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
