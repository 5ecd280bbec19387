import { Badge, Button, Group, NativeSelect, Table, Text, TextInput } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { userListQuerySchema, usersApi } from '#contract/users.ts'
import { FormErrors } from '~/components/forms/fields.tsx'
import { ListPage } from '~/components/lists/list-page.tsx'
import { api } from '~/.server/api.ts'
import { requireAdmin } from '~/.server/auth.ts'
import { pageError, rowError } from '~/.server/failures.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery } from '~/.server/lists.ts'
import { readForm } from '~/.server/request.ts'
import { redirectWithToast } from '~/.server/toast.ts'
import { formatDateTime } from '~/utils/format.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, user } = await requireAdmin({ request, context })
  const query = listQuery(request, userListQuerySchema, ['keyword', 'role', 'is_banned'])
  try {
    const page = await api(request, usersApi.list, { token, query })
    return { title: await pageTitle(request, 'menu.userManage'), page, me: user.id }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('ban'), id: z.coerce.number().int().positive(), is_banned: z.coerce.number().int().min(0).max(1) }),
  z.object({ intent: z.literal('role'), id: z.coerce.number().int().positive(), role: z.enum(['admin', 'user']) }),
])

/** Ban / unban and role changes, one small form per row. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request)))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  const v = parsed.data
  const body = v.intent === 'ban' ? { id: v.id, is_banned: v.is_banned } : { id: v.id, role: v.role }
  try {
    await api(request, usersApi.adminUpdate, { token, body })
  } catch (e) {
    return data({ error: await rowError(request, e) }, { status: 400 })
  }
  const url = new URL(request.url)
  return redirectWithToast(request, url.pathname + url.search, { type: 'success', key: 'common.editSuccess' })
}

export default function UserManage() {
  const { t } = useTranslation()
  const { page, me } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  return (
    <ListPage
      title={t('menu.userManage')}
      filters={
        <Form method="get">
          <Group align="flex-end">
            <TextInput name="keyword" label={t('system.users.keyword')} defaultValue={params.get('keyword') ?? ''} maxLength={100} />
            <NativeSelect
              name="role"
              label={t('system.users.role')}
              defaultValue={params.get('role') ?? ''}
              data={[{ value: '', label: t('common.all') }, { value: 'admin', label: t('users.roles.admin') }, { value: 'user', label: t('users.roles.user') }]}
            />
            <Button type="submit" variant="light">
              {t('common.search')}
            </Button>
          </Group>
        </Form>
      }
      page={page}
      minWidth={900}
      head={
        <>
          <Table.Th>ID</Table.Th>
          <Table.Th>{t('auth.userName')}</Table.Th>
          <Table.Th>{t('system.users.email')}</Table.Th>
          <Table.Th>{t('system.users.phone')}</Table.Th>
          <Table.Th>{t('system.users.role')}</Table.Th>
          <Table.Th>{t('system.users.status')}</Table.Th>
          <Table.Th>{t('system.users.lastLogin')}</Table.Th>
          <Table.Th>{t('system.users.createdAt')}</Table.Th>
          <Table.Th>{t('common.actions')}</Table.Th>
        </>
      }
      row={(u) => (
        <Table.Tr key={u.id}>
          <Table.Td>{u.id}</Table.Td>
          <Table.Td>{u.user_name}</Table.Td>
          <Table.Td>{u.email ?? '—'}</Table.Td>
          <Table.Td>{u.phone ?? '—'}</Table.Td>
          <Table.Td>
            <Badge variant="light" color={u.role === 'admin' ? 'grape' : 'gray'}>
              {t(`users.roles.${u.role}`)}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Badge variant="light" color={u.is_banned ? 'red' : 'green'}>
              {u.is_banned ? t('system.users.banned') : t('system.users.active')}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Text size="xs">{formatDateTime(u.last_login_time)}</Text>
            <Text size="xs" c="dimmed">
              {u.last_login_iP ?? ''}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="xs">{formatDateTime(u.created_at)}</Text>
          </Table.Td>
          <Table.Td>
            {u.id === me ? (
              <Text size="xs" c="dimmed">
                {t('system.users.you')}
              </Text>
            ) : (
              <Group gap={4} wrap="nowrap">
                <Form method="post">
                  <input type="hidden" name="id" value={u.id} />
                  <input type="hidden" name="is_banned" value={u.is_banned ? 0 : 1} />
                  <Button type="submit" name="intent" value="ban" size="compact-xs" color={u.is_banned ? 'green' : 'red'} variant="light">
                    {u.is_banned ? t('system.users.unban') : t('system.users.ban')}
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="id" value={u.id} />
                  <input type="hidden" name="role" value={u.role === 'admin' ? 'user' : 'admin'} />
                  <Button type="submit" name="intent" value="role" size="compact-xs" variant="default">
                    {u.role === 'admin' ? t('system.users.makeUser') : t('system.users.makeAdmin')}
                  </Button>
                </Form>
              </Group>
            )}
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={actionData && 'error' in actionData ? [actionData.error] : undefined} />
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
