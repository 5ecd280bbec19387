import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, Radio, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { Page } from '#contract/envelope.ts'
import { adminShareListQuerySchema, adminShareUpdateSchema, type PublicShare, type ShareStatus } from '#contract/shares.ts'
import { ConfirmDialog, UrlDialog, useUrlDialogs } from '~/components/dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { FormErrors, TextField, useIsPending } from '~/components/forms.tsx'
import { Pager } from '~/components/list.tsx'
import { PriceField } from '~/components/share-form.tsx'
import { ShareCells, ShareFilters, ShareHeadCells, ShareStatusBadge } from '~/components/shares.tsx'
import { callApi } from '~/.server/api.ts'
import { requireAdmin } from '~/.server/auth.ts'
import { loaderApiError, replyWithApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery, listUrl, rowActionError } from '~/.server/lists.ts'
import { redirectWithToast } from '~/.server/toast.ts'

/**
 * `?ban=<id>` opens the confirm step of a ban (final, SPEC §4: not appealable), `?takeDown=<id>` that of
 * a take-down (issue 13: no destructive move on one click), `?edit=<id>` the edit form of a share
 * (title, price, subscription; any status, banned ones included).
 */
const DIALOGS = ['ban', 'takeDown', 'edit'] as const

/**
 * The edit form: the API's own rules (adminShareUpdateSchema) with every field required, in the browser
 * and in the action.
 */
const ADMIN_FIELDS = adminShareUpdateSchema.shape
const editSchema = z.object({
  id: ADMIN_FIELDS.id,
  title: ADMIN_FIELDS.title.unwrap(),
  price: ADMIN_FIELDS.price.unwrap(),
  subscription_status: z.enum(ADMIN_FIELDS.subscription_status.unwrap().options, { error: 'validation.subscriptionStatus' }),
})

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireAdmin(request)
  const query = listQuery(request, adminShareListQuerySchema, ['keyword', 'type', 'status', 'sort', 'order'])
  try {
    const page = await callApi<Page<PublicShare>>(request, '/api/shares/admin/list', { token, query })
    const params = new URL(request.url).searchParams
    const banId = Number(params.get('ban'))
    const ban = page.list.find((s) => s.id === banId && s.status !== 'violation')
    const takeDownId = Number(params.get('takeDown'))
    const takeDown = page.list.find((s) => s.id === takeDownId && s.status === 'approved')
    const editId = Number(params.get('edit'))
    const edit = page.list.find((s) => s.id === editId)
    return {
      title: await pageTitle(request, 'menu.adminShares'),
      page,
      toBan: ban ? { id: ban.id, title: ban.title, unicode: ban.unicode, seller: ban.user_name } : null,
      toTakeDown: takeDown ? { id: takeDown.id, title: takeDown.title, unicode: takeDown.unicode, seller: takeDown.user_name } : null,
      toEdit: edit
        ? {
            id: edit.id,
            title: edit.title,
            unicode: edit.unicode,
            seller: edit.user_name,
            status: edit.status,
            price: edit.price,
            subscription_status: edit.subscription_status,
          }
        : null,
    }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

/** The moves an admin may make (DESIGN §3, server/src/domain/shares/rules.ts), one intent each. */
const MOVES = { approve: 'approved', takeDown: 'reported_invalid', ban: 'violation' } as const satisfies Record<string, ShareStatus>
type Move = keyof typeof MOVES
const ACTIONS_FOR: Record<ShareStatus, Move[]> = {
  under_review: ['approve', 'ban'],
  approved: ['takeDown', 'ban'],
  reported_invalid: ['approve', 'ban'],
  violation: [],
}

const actionSchema = z.object({ intent: z.enum(['approve', 'takeDown', 'ban']), id: z.coerce.number().int().positive() })

/** A row action's failure (`error`, above the list) or the edit form's result (on the form). */
type ActionResult = { error: string; edit?: undefined } | { error?: undefined; edit: { id: string; result: SubmissionResult<string[]> } }

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireAdmin(request)
  const formData = await request.formData()
  const done = () => redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
  if (formData.get('intent') === 'edit') {
    const id = String(formData.get('id') ?? '')
    const submission = parseWithZod(formData, { schema: editSchema })
    if (submission.status !== 'success') return data<ActionResult>({ edit: { id, result: submission.reply() } }, { status: 400 })
    try {
      await callApi(request, '/api/shares/admin/update', { token, body: submission.value })
    } catch (e) {
      const res = await replyWithApiError(request, submission, e)
      return data<ActionResult>({ edit: { id, result: res.data as SubmissionResult<string[]> } }, res.init ?? undefined)
    }
    return done()
  }
  const parsed = actionSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data<ActionResult>({ error: 'errors.badRequest' }, { status: 400 })
  const { intent, id } = parsed.data
  try {
    await callApi(request, '/api/shares/admin/update', { token, body: { id, status: MOVES[intent] } })
  } catch (e) {
    return data<ActionResult>({ error: await rowActionError(request, e) }, { status: 400 })
  }
  return done()
}

function MoveButton({ id, move, label, title }: { id: number; move: 'approve'; label: string; title: string }) {
  const pending = useIsPending({ intent: move })
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="intent" value={move} size="compact-xs" variant="light" color="green" loading={pending} aria-label={`${label} ${title}`}>
        {label}
      </Button>
    </Form>
  )
}

type EditTarget = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['toEdit']>

/**
 * The admin's edit form (in a URL dialog): posts to this URL, so a refusal comes back with the dialog
 * still open and the errors on the fields; a success returns to the list with its filters.
 */
function EditShareDialog({ share, lastResult, action, closeTo }: { share: EditTarget; lastResult?: SubmissionResult<string[]>; action: string; closeTo: string }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'edit' })
  const [form, fields] = useForm({
    id: `admin-share-edit-${share.id}`,
    lastResult,
    constraint: getZodConstraint(editSchema),
    defaultValue: { id: String(share.id), title: share.title, price: share.price.toFixed(2), subscription_status: share.subscription_status },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editSchema }),
  })
  const subscriptionError = fields.subscription_status.errors?.[0]
  return (
    <UrlDialog title={t('shares.admin.editTitle')} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name={fields.id.name} value={share.id} />
        <Stack>
          <Group gap="xs">
            <Text size="sm">{t('shares.admin.editOf', { unicode: share.unicode, seller: share.seller })}</Text>
            <ShareStatusBadge status={share.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {share.status === 'violation' ? t('shares.admin.editBannedNotice') : t('shares.admin.editNotice')}
          </Text>
          <TextField meta={fields.title} label={t('shares.field.title')} data-autofocus />
          <PriceField meta={fields.price as never} />
          <Radio.Group
            name={fields.subscription_status.name}
            label={t('shares.field.subscription')}
            defaultValue={fields.subscription_status.initialValue ?? share.subscription_status}
            error={subscriptionError ? t(subscriptionError, { defaultValue: t('validation.invalid') }) : undefined}
          >
            <Group mt="xs">
              <Radio value="close" label={t('shares.form.subscriptionClose')} />
              <Radio value="open" label={t('shares.form.subscriptionOpen')} />
            </Group>
          </Radio.Group>
          <FormErrors errors={form.errors} id={form.errorId} />
          <Group justify="flex-end">
            <Button component={Link} to={closeTo} variant="default" preventScrollReset replace>
              {t('common.cancel')}
            </Button>
            <Button type="submit" name="intent" value="edit" loading={pending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </Form>
    </UrlDialog>
  )
}

export default function AdminShares() {
  const { t } = useTranslation()
  const { page, toBan, toTakeDown, toEdit } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  // An edit refused for a share no longer on this page (deleted meanwhile): its form is not shown, so
  // the reason is stated above the list.
  const editGone = actionData?.edit && !toEdit ? actionData.edit.result.error?.[''] : undefined
  return (
    <Stack>
      <Title order={2}>{t('menu.adminShares')}</Title>
      <ShareFilters textFilter="keyword" />
      <FormErrors errors={actionData?.error ? [actionData.error] : (editGone ?? undefined)} />
      {toBan ? (
        <ConfirmDialog
          title={t('shares.admin.confirmBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="ban"
          fields={{ id: toBan.id }}
          confirmLabel={t('shares.admin.ban')}
        >
          {t('shares.admin.confirmBanText', toBan)}
        </ConfirmDialog>
      ) : null}
      {toTakeDown ? (
        <ConfirmDialog
          title={t('shares.admin.confirmTakeDownTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="takeDown"
          fields={{ id: toTakeDown.id }}
          confirmLabel={t('shares.admin.takeDown')}
          color="orange"
        >
          {t('shares.admin.confirmTakeDownText', toTakeDown)}
        </ConfirmDialog>
      ) : null}
      {toEdit ? (
        <EditShareDialog
          key={toEdit.id}
          share={toEdit}
          lastResult={actionData?.edit?.id === String(toEdit.id) ? actionData.edit.result : undefined}
          action={dialogs.open('edit', toEdit.id)}
          closeTo={dialogs.closed}
        />
      ) : null}
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <ShareHeadCells withSeller />
              <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((s) => (
              <Table.Tr key={s.id}>
                <ShareCells share={s} withSeller />
                <Table.Td className="ps-actions">
                  <Group gap={4} maw={180}>
                    <Button component="a" href={`/share/${s.unicode}`} target="_blank" rel="noopener" size="compact-xs" variant="default">
                      {t('shares.list.open')}
                    </Button>
                    <Button
                      component={Link}
                      to={dialogs.open('edit', s.id)}
                      preventScrollReset
                      size="compact-xs"
                      variant="light"
                      aria-label={`${t('shares.admin.edit')} ${s.title}`}
                    >
                      {t('shares.admin.edit')}
                    </Button>
                    {ACTIONS_FOR[s.status].map((move) =>
                      move === 'approve' ? (
                        <MoveButton
                          key={move}
                          id={s.id}
                          move={move}
                          title={s.title}
                          // SPEC §4: a taken-down share is recovered, a new one approved.
                          label={s.status === 'reported_invalid' ? t('shares.admin.recover') : t('shares.admin.approve')}
                        />
                      ) : (
                        <Button
                          key={move}
                          component={Link}
                          to={dialogs.open(move, s.id)}
                          preventScrollReset
                          size="compact-xs"
                          variant="light"
                          color={move === 'ban' ? 'red' : 'orange'}
                          aria-label={`${t(`shares.admin.${move}`)} ${s.title}`}
                        >
                          {t(`shares.admin.${move}`)}
                        </Button>
                      ),
                    )}
                    {s.status === 'violation' ? (
                      <Text size="xs" c="dimmed">
                        {t('shares.admin.final')}
                      </Text>
                    ) : null}
                  </Group>
                </Table.Td>
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
