import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import { adminMovesFrom, adminShareListQuerySchema, SHARE_ADMIN_MOVES, type ShareAdminMove, sharesApi } from '#contract/shares.ts'
import { AuditTrail } from '#app/components/audit/audit-trail.tsx'
import { ConfirmDialog, UrlDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, useIsPending } from '#app/components/forms/fields.tsx'
import { ListPage } from '#app/components/lists/list-page.tsx'
import { ShareCells, ShareFilters, ShareHeadCells } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { EditShareDialog, editSchema } from './edit-share-dialog.tsx'
import { TextSep } from '#app/components/layout/text-mode.tsx'

/**
 * `?ban=<id>` opens the confirm step of a ban (final, SPEC §4: not appealable), `?takeDown=<id>` that of
 * a take-down (issue 13: no destructive move on one click), `?edit=<id>` the edit form of a share
 * (title, price, subscription; any status, banned ones included), `?history=<id>` the share's audit
 * trail (every status change: who, when, from, to, why — issue 9).
 */
const DIALOGS = ['ban', 'takeDown', 'edit', 'history'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminShareListQuerySchema, ['keyword', 'type', 'status', 'sort', 'order'])
  try {
    const page = await api(request, sharesApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const banId = Number(params.get('ban'))
    const ban = page.list.find((s) => s.id === banId && s.status !== 'violation')
    const takeDownId = Number(params.get('takeDown'))
    const takeDown = page.list.find((s) => s.id === takeDownId && s.status === 'approved')
    const editId = Number(params.get('edit'))
    const edit = page.list.find((s) => s.id === editId)
    const historyOf = page.list.find((s) => String(s.id) === params.get('history'))
    const history = historyOf ? (await api(request, auditApi.adminList, { token, query: { subject: `share:${historyOf.id}` } })).list : null
    return {
      title: await pageTitle(request, 'menu.adminShares'),
      page,
      toBan: ban ? { id: ban.id, title: ban.title, unicode: ban.unicode, seller: ban.user_name } : null,
      history: historyOf && history ? { title: historyOf.title, unicode: historyOf.unicode, events: history } : null,
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
    return pageError(request, e)
  }
}

/** A row's move (contract: SHARE_ADMIN_MOVES), one intent each; the API refuses a move its status does not allow. */
const moveSchema = z.object({
  intent: z.custom<ShareAdminMove>((v) => typeof v === 'string' && Object.hasOwn(SHARE_ADMIN_MOVES, v)),
  id: z.coerce.number().int().positive(),
})

/** A row action's failure (`error`, above the list) or the edit form's result (on the form). */
type ActionResult = { error: string; edit?: undefined } | { error?: undefined; edit: { id: string; result: SubmissionResult<string[]> } }

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['edit', ...Object.keys(SHARE_ADMIN_MOVES)])
  const done = () => redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
  if (formData.get('intent') === 'edit') {
    const id = String(formData.get('id') ?? '')
    const submission = parseWithZod(formData, { schema: editSchema })
    if (submission.status !== 'success') return data<ActionResult>({ edit: { id, result: submission.reply() } }, { status: 400 })
    try {
      await api(request, sharesApi.adminUpdate, { token, body: submission.value })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data<ActionResult>({ edit: { id, result: res.data } }, res.init ?? undefined)
    }
    return done()
  }
  const parsed = moveSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data<ActionResult>({ error: 'errors.badRequest' }, { status: 400 })
  const { intent, id } = parsed.data
  try {
    await api(request, sharesApi.adminUpdate, { token, body: { id, status: SHARE_ADMIN_MOVES[intent] } })
  } catch (e) {
    return data<ActionResult>({ error: await rowError(request, e) }, { status: 400 })
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

export default function AdminShares() {
  const { t } = useTranslation()
  const { page, toBan, toTakeDown, toEdit, history } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  // An edit refused for a share no longer on this page (deleted meanwhile): its form is not shown, so
  // the reason is stated above the list.
  const editGone = actionData?.edit && !toEdit ? actionData.edit.result.error?.[''] : undefined
  return (
    <ListPage
      title={t('menu.adminShares')}
      filters={<ShareFilters textFilter="keyword" />}
      page={page}
      minWidth={1000}
      head={
        <>
          <ShareHeadCells withSeller />
          <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
        </>
      }
      row={(s) => (
        <Table.Tr key={s.id}>
          <ShareCells share={s} withSeller />
          <Table.Td className="ps-actions">
            <Group gap={4} maw={180}>
              <Button component="a" href={`/share/${s.unicode}`} target="_blank" rel="noopener" size="compact-xs" variant="default">
                {t('shares.list.open')}
              </Button>
              <TextSep />
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
              <TextSep />
              <Button
                component={Link}
                to={dialogs.open('history', s.id)}
                preventScrollReset
                size="compact-xs"
                variant="default"
                aria-label={`${t('moderation.history')} ${s.title}`}
              >
                {t('moderation.history')}
              </Button>
              <TextSep />
              {adminMovesFrom(s.status).map((move) =>
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
      )}
    >
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
      {history ? (
        <UrlDialog title={t('moderation.historyTitle', history)} closeTo={dialogs.closed} wide>
          <AuditTrail events={history.events} />
          <Group justify="flex-end" mt="md">
            <Button component={Link} to={dialogs.closed} variant="default" preventScrollReset replace>
              {t('moderation.close')}
            </Button>
          </Group>
        </UrlDialog>
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
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
