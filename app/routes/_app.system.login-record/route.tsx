import { Anchor, Table, TextInput } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { adminLoginRecordFiltersSchema, loginRecordsApi } from '#contract/users.ts'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { DateField } from '#app/components/forms/date-field.tsx'
import { FilterForm, TextFilter } from '#app/components/lists/filters.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** By name/email/IP text, one user, an exact IP and a range of days (issue 9; each has its index). */
const FILTERS = ['keyword', 'uid', 'ip', 'from', 'to'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  try {
    const query = listQuery(request, adminLoginRecordFiltersSchema, FILTERS)
    // An end before the start is stated at the field, and the range is not applied.
    const badRange = Boolean(query.from && query.to && query.from > query.to)
    if (badRange) delete query.to
    const page = await api(request, loginRecordsApi.adminList, { token, query })
    return { title: await pageTitle(request, 'menu.loginRecord'), page, badRange }
  } catch (e) {
    return pageError(request, e)
  }
}

/** SPEC §3 Login record: uid, email, username, browser, device, IP, time; and how (password / QQ / WeChat, issue 12). */
export default function LoginRecords() {
  const { t } = useTranslation()
  const { page, badRange } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  return (
    <ListPage
      title={t('menu.loginRecord')}
      filters={
        <FilterForm gap="md">
          <TextFilter name="keyword" label={t('system.loginRecords.keyword')} />
          <TextInput name="uid" label={t('oversight.loginRecords.uid')} defaultValue={params.get('uid') ?? ''} inputMode="numeric" w={110} />
          <TextFilter name="ip" label={t('oversight.loginRecords.ip')} maxLength={45} w={170} />
          <DateField name="from" label={t('oversight.loginRecords.from')} value={params.get('from')} />
          <DateField
            name="to"
            label={t('oversight.loginRecords.to')}
            value={params.get('to')}
            error={badRange ? t('oversight.validation.dateRange') : undefined}
          />
        </FilterForm>
      }
      page={page}
      minWidth={800}
      head={[
        'UID',
        t('auth.userName'),
        t('system.users.email'),
        t('system.loginRecords.browser'),
        t('system.loginRecords.device'),
        'IP',
        t('oauth.methodColumn'),
        t('system.loginRecords.time'),
      ]}
      row={(r) => (
        <Table.Tr key={r.id}>
          <Table.Td>
            <Anchor component={Link} to={`/system/user-manage/${r.uid}`} size="sm">
              {r.uid}
            </Anchor>
          </Table.Td>
          <Table.Td>{r.username}</Table.Td>
          <Table.Td>{r.email ?? '—'}</Table.Td>
          <Table.Td>{r.loginBrowser}</Table.Td>
          <Table.Td>{r.loginDevice}</Table.Td>
          <Table.Td>{r.loginIp}</Table.Td>
          <Table.Td>{t(`oauth.method.${r.method}`)}</Table.Td>
          <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
        </Table.Tr>
      )}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
