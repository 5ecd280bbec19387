import { Table, Text } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { adminSubscriptionListQuerySchema, SUBSCRIPTION_TAGS, subscriptionsApi } from '#contract/subscriptions.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { DateTimeCell } from '#app/components/shares/shares.tsx'
import { SubscriptionTagBadge } from '#app/components/subscriptions/subscriptions.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminSubscriptionListQuerySchema, ['keyword', 'status'])
  try {
    const page = await api(request, subscriptionsApi.adminList, { token, query })
    return { title: await pageTitle(request, 'menu.subscriptionManage'), page }
  } catch (e) {
    return pageError(request, e)
  }
}

function Filters() {
  const { t } = useTranslation()
  return (
    <FilterForm>
      <TextFilter name="keyword" label={t('subscriptions.filter.keyword')} />
      <SelectFilter name="status" label={t('subscriptions.field.status')} options={SUBSCRIPTION_TAGS.map((s) => [s, t(`subscriptions.tags.${s}`)] as const)} />
    </FilterForm>
  )
}

/** Every subscription (SPEC §3 Package: user_name, product_name, created time), with its tag and expiry. */
export default function AdminSubscriptions() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  return (
    <ListPage
      title={t('menu.subscriptionManage')}
      filters={<Filters />}
      page={page}
      minWidth={860}
      head={[
        t('subscriptions.field.user'),
        t('subscriptions.field.package'),
        { label: t('subscriptions.field.downloadLimit'), right: true },
        t('subscriptions.field.status'),
        t('subscriptions.field.createdAt'),
        t('subscriptions.field.startsAt'),
        t('subscriptions.field.expiresAt'),
      ]}
      row={(s) => (
        <Table.Tr key={s.id}>
          <Table.Td>{s.user_name}</Table.Td>
          <Table.Td miw={160} maw={260}>
            <Text size="sm" lineClamp={2} title={s.product_name}>
              {s.product_name}
            </Text>
          </Table.Td>
          <Table.Td ta="right">{s.download_limit}</Table.Td>
          <Table.Td>
            <SubscriptionTagBadge tag={s.status} />
          </Table.Td>
          <Table.Td>
            <DateTimeCell iso={s.created_at} />
          </Table.Td>
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
