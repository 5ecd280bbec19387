import { Button, Group, Table, TextInput } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { loginRecordQuerySchema, loginRecordsApi } from '#contract/users.ts'
import { ListPage } from '#app/components/lists/list-page.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { formatDateTime } from '#app/utils/format.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  try {
    const page = await api(request, loginRecordsApi.adminList, { token, query: listQuery(request, loginRecordQuerySchema, ['keyword']) })
    return { title: await pageTitle(request, 'menu.loginRecord'), page }
  } catch (e) {
    return pageError(request, e)
  }
}

/** SPEC §3 Login record: uid, email, username, browser, device, IP, time. */
export default function LoginRecords() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  return (
    <ListPage
      title={t('menu.loginRecord')}
      filters={
        <Form method="get">
          <Group align="flex-end">
            <TextInput name="keyword" label={t('system.loginRecords.keyword')} defaultValue={params.get('keyword') ?? ''} maxLength={100} />
            <Button type="submit" variant="light">
              {t('common.search')}
            </Button>
          </Group>
        </Form>
      }
      page={page}
      minWidth={800}
      head={
        <>
          <Table.Th>UID</Table.Th>
          <Table.Th>{t('auth.userName')}</Table.Th>
          <Table.Th>{t('system.users.email')}</Table.Th>
          <Table.Th>{t('system.loginRecords.browser')}</Table.Th>
          <Table.Th>{t('system.loginRecords.device')}</Table.Th>
          <Table.Th>IP</Table.Th>
          <Table.Th>{t('system.loginRecords.time')}</Table.Th>
        </>
      }
      row={(r) => (
        <Table.Tr key={r.id}>
          <Table.Td>{r.uid}</Table.Td>
          <Table.Td>{r.username}</Table.Td>
          <Table.Td>{r.email ?? '—'}</Table.Td>
          <Table.Td>{r.loginBrowser}</Table.Td>
          <Table.Td>{r.loginDevice}</Table.Td>
          <Table.Td>{r.loginIp}</Table.Td>
          <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
        </Table.Tr>
      )}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
