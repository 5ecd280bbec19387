import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Page } from '#contract/envelope.ts'
import type { LoginRecord } from '#contract/users.ts'
import { listParams, Pager } from '~/components/lists/pager.tsx'
import { callApi } from '~/.server/api.ts'
import { requireAdmin } from '~/.server/auth.ts'
import { loaderApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { formatDateTime } from '~/utils/format.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireAdmin(request)
  try {
    const page = await callApi<Page<LoginRecord>>(request, '/api/loginRecords/admin/list', { token, query: listParams(request, ['keyword']) })
    return { title: await pageTitle(request, 'menu.loginRecord'), page }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

/** SPEC §3 Login record: uid, email, username, browser, device, IP, time. */
export default function LoginRecords() {
  const { t } = useTranslation()
  const { page } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  return (
    <Stack>
      <Title order={2}>{t('menu.loginRecord')}</Title>
      <Form method="get">
        <Group align="flex-end">
          <TextInput name="keyword" label={t('system.loginRecords.keyword')} defaultValue={params.get('keyword') ?? ''} maxLength={100} />
          <Button type="submit" variant="light">
            {t('common.search')}
          </Button>
        </Group>
      </Form>
      <Table.ScrollContainer minWidth={800}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>UID</Table.Th>
              <Table.Th>{t('auth.userName')}</Table.Th>
              <Table.Th>{t('system.users.email')}</Table.Th>
              <Table.Th>{t('system.loginRecords.browser')}</Table.Th>
              <Table.Th>{t('system.loginRecords.device')}</Table.Th>
              <Table.Th>IP</Table.Th>
              <Table.Th>{t('system.loginRecords.time')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.uid}</Table.Td>
                <Table.Td>{r.username}</Table.Td>
                <Table.Td>{r.email ?? '—'}</Table.Td>
                <Table.Td>{r.loginBrowser}</Table.Td>
                <Table.Td>{r.loginDevice}</Table.Td>
                <Table.Td>{r.loginIp}</Table.Td>
                <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page.list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      <Pager total={page.total} pageNum={page.pageNum} pageSize={page.pageSize} />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
