import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Anchor, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import type { Order } from '#contract/orders.ts'
import { oversightApi } from '#contract/oversight.ts'
import { adminUpdateUserSchema, idSchema, USER_STATUSES, type User, usersApi } from '#contract/users.ts'
import { AuditTrail } from '#app/components/audit/audit-trail.tsx'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, TextareaField, TextField, useIsPending, rowErrors } from '#app/components/forms/fields.tsx'
import { IncomeFigures } from '#app/components/income/income.tsx'
import { linksApi } from '#contract/links.ts'
import { Empty, PartyOrderTable, SellerShareTable } from '#app/components/oversight/tables.tsx'
import { PaymentStatusBadge } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'

/** `?ban=1` and `?setRole=1` open the confirm step of a ban or a role change (unbanning needs none). */
const DIALOGS = ['ban', 'setRole'] as const

/**
 * The edit form (SPEC §3 User fields) checked by the API's own field rules. An empty email, phone or
 * Alipay field clears it (conform submits it as absent; the action sends null).
 */
const editSchema = adminUpdateUserSchema.pick({ user_name: true, profile: true, status: true }).required({ user_name: true, status: true }).extend({
  email: adminUpdateUserSchema.shape.email.unwrap().unwrap().optional(),
  phone: adminUpdateUserSchema.shape.phone.unwrap().unwrap().optional(),
  alipayRealName: adminUpdateUserSchema.shape.alipayRealName.unwrap().unwrap().optional(),
  alipayAccount: adminUpdateUserSchema.shape.alipayAccount.unwrap().unwrap().optional(),
})

const parseId = (raw: string | undefined) => {
  const id = idSchema.safeParse(raw)
  if (!id.success) throw data({ msg: 'errors.notFound' }, { status: 404 })
  return id.data
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { token, user: me } = await requireAdmin({ request, context })
  const id = parseId(params.id)
  try {
    const [detail, audit, linkRate] = await Promise.all([
      api(request, oversightApi.userDetail, { token, query: { id } }),
      api(request, auditApi.adminList, { token, query: { subject: `user:${id}` } }),
      api(request, linksApi.sellerRate, { token, query: { user_id: id } }),
    ])
    const search = new URL(request.url).searchParams
    const self = id === me.id
    return {
      title: `${detail.user.user_name} - ${await pageTitle(request, 'oversight.user.title')}`,
      detail,
      events: audit.list,
      linkRate,
      self,
      confirmBan: !self && search.has('ban') && !detail.user.is_banned,
      confirmRole: !self && search.has('setRole'),
    }
  } catch (e) {
    return pageError(request, e)
  }
}

const rowActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('ban'), is_banned: z.coerce.number().int().min(0).max(1) }),
  z.object({ intent: z.literal('role'), role: z.enum(['admin', 'user']) }),
])

/** Edit (intent `edit`), ban / unban and role changes, all through POST /api/users/admin/update. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const id = parseId(params.id)
  const form = await readForm(request, ['edit', 'ban', 'role'])
  if (form.get('intent') === 'edit') {
    const submission = parseWithZod(form, { schema: editSchema })
    if (submission.status !== 'success') return data({ edit: submission.reply() }, { status: 400 })
    const v = submission.value
    const body = {
      id,
      user_name: v.user_name,
      profile: v.profile ?? '',
      status: v.status,
      email: v.email ?? null,
      phone: v.phone ?? null,
      alipayRealName: v.alipayRealName ?? null,
      alipayAccount: v.alipayAccount ?? null,
    }
    try {
      await api(request, usersApi.adminUpdate, { token, body })
    } catch (e) {
      return data({ edit: (await fieldError(request, submission, e)).data }, { status: 400 })
    }
    return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
  }
  const parsed = rowActionSchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  const v = parsed.data
  try {
    await api(request, usersApi.adminUpdate, { token, body: v.intent === 'ban' ? { id, is_banned: v.is_banned } : { id, role: v.role } })
  } catch (e) {
    return rowRefusal(request, e)
  }
  return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
}

function EditForm({ user, last }: { user: User; last?: SubmissionResult<string[]> }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'edit' })
  const [form, fields] = useForm<z.input<typeof editSchema>, z.output<typeof editSchema>, string[]>({
    id: 'user-edit',
    lastResult: last,
    constraint: getZodConstraint(editSchema),
    defaultValue: {
      user_name: user.user_name,
      email: user.email ?? '',
      phone: user.phone ?? '',
      profile: user.profile,
      status: user.status,
      alipayRealName: user.alipayRealName ?? '',
      alipayAccount: user.alipayAccount ?? '',
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack gap="sm">
        <TextField meta={fields.user_name} label={t('auth.userName')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField meta={fields.email} type="email" label={t('system.users.email')} description={t('oversight.user.emptyClears')} />
          <TextField meta={fields.phone} type="tel" label={t('system.users.phone')} description={t('oversight.user.emptyClears')} />
          <TextField meta={fields.alipayRealName} label={t('oversight.user.alipayRealName')} />
          <TextField meta={fields.alipayAccount} label={t('oversight.user.alipayAccount')} />
        </SimpleGrid>
        <TextareaField meta={fields.profile} label={t('oversight.user.profile')} autosize minRows={2} />
        <NativeSelect
          name={fields.status.name}
          id={fields.status.id}
          defaultValue={String(fields.status.initialValue ?? 'active')}
          label={t('system.users.status')}
          error={fields.status.errors?.[0] ? t(fields.status.errors[0]) : undefined}
          data={USER_STATUSES.map((s) => ({ value: s, label: t(`oversight.user.statuses.${s}`) }))}
        />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value="edit" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}

function Section({ title, total, children }: { title: string; total?: number; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Title order={3}>{title}</Title>
        {total !== undefined ? (
          <Text size="sm" c="dimmed">
            {t('oversight.user.newestOf', { total })}
          </Text>
        ) : null}
      </Group>
      {children}
    </Stack>
  )
}

/** A page of the user's orders as a seller or a buyer: status and creation time after the common columns. */
function OrderTable({ orders, other }: { orders: Order[]; other: 'buyer' | 'seller' }) {
  const { t } = useTranslation()
  const more = [
    { head: t('orders.field.status'), cell: (o: Order) => <PaymentStatusBadge status={o.payment_status} /> },
    { head: t('orders.field.createdAt'), cell: (o: Order) => formatDateTime(o.created_at) },
  ]
  return <PartyOrderTable orders={orders} other={other} linked more={more} minWidth={760} />
}

export default function UserView() {
  const { t } = useTranslation()
  const { detail, events, linkRate, self, confirmBan, confirmRole } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  const { user, shares, buyerOrders, sellerOrders, loginRecords, income } = detail
  const newRole = user.role === 'admin' ? 'user' : 'admin'
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to="/system/user-manage" size="sm">
          ← {t('menu.userManage')}
        </Anchor>
        <Group gap="sm">
          <Title order={2}>{user.user_name}</Title>
          <Badge variant="light" color={user.role === 'admin' ? 'grape' : 'gray'}>
            {t(`users.roles.${user.role}`)}
          </Badge>
          <Badge variant="light" color={user.is_banned ? 'red' : 'green'}>
            {user.is_banned ? t('system.users.banned') : t('system.users.active')}
          </Badge>
          {user.status === 'disabled' ? (
            <Badge variant="light" color="orange">
              {t('oversight.user.statuses.disabled')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          ID {user.id} · {t('system.users.createdAt')} {formatDateTime(user.created_at)} · {t('system.users.lastLogin')} {formatDateTime(user.last_login_time)}{' '}
          {user.last_login_iP ?? ''}
        </Text>
      </Stack>

      {self ? null : (
        <Group gap="xs">
          {user.is_banned ? (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="is_banned" value={0} />
              <Button type="submit" name="intent" value="ban" variant="light" color="green">
                {t('system.users.unban')}
              </Button>
            </Form>
          ) : (
            <Button component={Link} to={dialogs.open('ban', 1)} preventScrollReset variant="light" color="red">
              {t('system.users.ban')}
            </Button>
          )}
          <Button component={Link} to={dialogs.open('setRole', 1)} preventScrollReset variant="default">
            {newRole === 'admin' ? t('system.users.makeAdmin') : t('system.users.makeUser')}
          </Button>
          {user.role === 'admin' ? null : (
            <Button component={Link} to={`/system/user-manage/${user.id}/fraud`} color="red">
              {t('oversight.fraud.button')}
            </Button>
          )}
        </Group>
      )}
      <FormErrors errors={actionData && 'error' in actionData ? rowErrors(actionData) : undefined} />
      {confirmBan ? (
        <ConfirmDialog
          title={t('system.users.confirmBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="ban"
          fields={{ is_banned: 1 }}
          confirmLabel={t('system.users.ban')}
        >
          {t('system.users.confirmBanText', { name: user.user_name })}
        </ConfirmDialog>
      ) : null}
      {confirmRole ? (
        <ConfirmDialog
          title={newRole === 'admin' ? t('system.users.confirmAdminTitle') : t('system.users.confirmUserTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="role"
          fields={{ role: newRole }}
          confirmLabel={newRole === 'admin' ? t('system.users.makeAdmin') : t('system.users.makeUser')}
          color={newRole === 'admin' ? 'orange' : 'red'}
        >
          {newRole === 'admin' ? t('system.users.confirmAdminText', { name: user.user_name }) : t('system.users.confirmUserText', { name: user.user_name })}
        </ConfirmDialog>
      ) : null}

      <Section title={t('oversight.user.income')}>
        <IncomeFigures summary={income} />
      </Section>

      {/* Issue 25: how often this seller's links were found dead; its stopped links on the Dead links page. */}
      <Section title={t('links.page.rate')}>
        <Text size="sm" data-testid="dead-link-rate">
          {t('links.page.rateValue', { rate: `${(linkRate.rate * 100).toFixed(1)}%`, dead: linkRate.dead_checks, checks: linkRate.checks, deadLinks: linkRate.dead_links, links: linkRate.links })}{' '}
          <Anchor component={Link} to={`/system/dead-links?seller=${encodeURIComponent(user.user_name)}`} size="sm">
            {t('links.page.title')}
          </Anchor>
        </Text>
      </Section>

      <Paper withBorder p="md" maw={760}>
        <Stack gap="sm">
          <Title order={3}>{t('oversight.user.edit')}</Title>
          <EditForm user={user} last={actionData && 'edit' in actionData ? actionData.edit : undefined} />
        </Stack>
      </Paper>

      <Section title={t('oversight.user.shares')} total={shares.total}>
        <SellerShareTable shares={shares.list} withCreatedAt />
      </Section>

      <Section title={t('oversight.user.sellerOrders')} total={sellerOrders.total}>
        <OrderTable orders={sellerOrders.list} other="buyer" />
      </Section>
      <Section title={t('oversight.user.buyerOrders')} total={buyerOrders.total}>
        <OrderTable orders={buyerOrders.list} other="seller" />
      </Section>

      <Section title={t('oversight.user.logins')} total={loginRecords.total}>
        {loginRecords.list.length === 0 ? (
          <Empty />
        ) : (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('system.loginRecords.time')}</Table.Th>
                    <Table.Th>IP</Table.Th>
                    <Table.Th>{t('system.loginRecords.browser')}</Table.Th>
                    <Table.Th>{t('system.loginRecords.device')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {loginRecords.list.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                      <Table.Td>{r.loginIp}</Table.Td>
                      <Table.Td>{r.loginBrowser}</Table.Td>
                      <Table.Td>{r.loginDevice}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Anchor component={Link} to={`/system/login-record?uid=${user.id}`} size="sm">
              {t('oversight.user.allLogins')}
            </Anchor>
          </>
        )}
      </Section>

      <AuditTrail events={events} />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
