import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { userListQuerySchema, usersApi } from '#contract/users.ts'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'
import { RowLink, RowPost } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/**
 * `?ban=<id>` and `?setRole=<id>` open the confirm step of a ban or a role change (issue 13); unbanning
 * needs none. (`role` is the list's own filter.)
 */
const DIALOGS = ['ban', 'setRole'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, user } = await requireAdmin({ request, context })
  const query = listQuery(request, userListQuerySchema, ['keyword', 'role', 'is_banned'])
  try {
    const page = await api(request, usersApi.list, { token, query })
    const params = new URL(request.url).searchParams
    const target = (key: (typeof DIALOGS)[number]) => page.list.find((u) => u.id === Number(params.get(key)) && u.id !== user.id)
    const ban = target('ban')
    const role = target('setRole')
    return {
      title: await pageTitle(request, 'menu.userManage'),
      page,
      me: user.id,
      toBan: ban && !ban.is_banned ? { id: ban.id, name: ban.user_name } : null,
      toRole: role ? { id: role.id, name: role.user_name, role: role.role === 'admin' ? ('user' as const) : ('admin' as const) } : null,
    }
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
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request, ['ban', 'role'])))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  const v = parsed.data
  const body = v.intent === 'ban' ? { id: v.id, is_banned: v.is_banned } : { id: v.id, role: v.role }
  try {
    await api(request, usersApi.adminUpdate, { token, body })
  } catch (e) {
    return rowRefusal(request, e)
  }
  return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
}

/** The user's admin view: profile, shares, orders, logins, income, history, the fraud action. */
function ViewButton({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation()
  return (
    <Button component={Link} to={`/system/user-manage/${id}`} size="compact-xs" variant="default" aria-label={`${t('oversight.user.view')} ${name}`}>
      {t('oversight.user.view')}
    </Button>
  )
}

function UnbanButton({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation()
  return <RowPost fields={{ id, is_banned: 0 }} intent="ban" label={t('system.users.unban')} item={name} color="green" />
}

export default function UserManage() {
  const { t } = useTranslation()
  const { page, me, toBan, toRole } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <ListPage
      title={t('menu.userManage')}
      filters={
        <FilterForm gap="md">
          <TextFilter name="keyword" label={t('system.users.keyword')} />
          <SelectFilter
            name="role"
            label={t('system.users.role')}
            options={[
              ['admin', t('users.roles.admin')],
              ['user', t('users.roles.user')],
            ]}
          />
          <SelectFilter
            name="is_banned"
            label={t('oversight.user.bannedFilter')}
            options={[
              ['0', t('system.users.active')],
              ['1', t('system.users.banned')],
            ]}
          />
        </FilterForm>
      }
      page={page}
      minWidth={900}
      head={[
        'ID',
        t('auth.userName'),
        t('system.users.email'),
        t('system.users.phone'),
        t('system.users.role'),
        t('system.users.status'),
        t('system.users.lastLogin'),
        t('system.users.createdAt'),
      ]}
      actions
      row={(u) => (
        <Table.Tr key={u.id}>
          <Table.Td>{u.id}</Table.Td>
          <Table.Td>
            <Anchor component={Link} to={`/system/user-manage/${u.id}`} size="sm">
              {u.user_name}
            </Anchor>
          </Table.Td>
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
          <Table.Td className="ps-actions">
            {u.id === me ? (
              <Group gap={4} wrap="nowrap">
                <TextSeparated>
                <ViewButton id={u.id} name={u.user_name} />
                <Text size="xs" c="dimmed">
                  {t('system.users.you')}
                </Text>
                </TextSeparated>
              </Group>
            ) : (
              <Group gap={4} wrap="nowrap">
                <TextSeparated>
                <ViewButton id={u.id} name={u.user_name} />
                {u.is_banned ? (
                  <UnbanButton id={u.id} name={u.user_name} />
                ) : (
                  <Button
                    component={Link}
                    to={dialogs.open('ban', u.id)}
                    preventScrollReset
                    size="compact-xs"
                    color="red"
                    variant="light"
                    aria-label={`${t('system.users.ban')} ${u.user_name}`}
                  >
                    {t('system.users.ban')}
                  </Button>
                )}
                <RowLink
                  to={dialogs.open('setRole', u.id)}
                  label={u.role === 'admin' ? t('system.users.makeUser') : t('system.users.makeAdmin')}
                  item={u.user_name}
                  variant="default"
                />
                </TextSeparated>
              </Group>
            )}
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={actionData && 'error' in actionData ? rowErrors(actionData) : undefined} />
      {toBan ? (
        <ConfirmDialog
          title={t('system.users.confirmBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="ban"
          fields={{ id: toBan.id, is_banned: 1 }}
          confirmLabel={t('system.users.ban')}
        >
          {t('system.users.confirmBanText', { name: toBan.name })}
        </ConfirmDialog>
      ) : null}
      {toRole ? (
        <ConfirmDialog
          title={toRole.role === 'admin' ? t('system.users.confirmAdminTitle') : t('system.users.confirmUserTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="role"
          fields={{ id: toRole.id, role: toRole.role }}
          confirmLabel={toRole.role === 'admin' ? t('system.users.makeAdmin') : t('system.users.makeUser')}
          color={toRole.role === 'admin' ? 'orange' : 'red'}
        >
          {toRole.role === 'admin' ? t('system.users.confirmAdminText', { name: toRole.name }) : t('system.users.confirmUserText', { name: toRole.name })}
        </ConfirmDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
