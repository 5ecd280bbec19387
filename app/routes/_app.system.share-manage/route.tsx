import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import { adminMovesFrom, adminShareBatchSchema, adminShareListQuerySchema, SHARE_ADMIN_MOVES, type ShareAdminMove, sharesApi } from '#contract/shares.ts'
import { HistoryDialog } from '#app/components/audit/history-dialog.tsx'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, useIsPending, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { SelectCell, SellerRecord, ShareContentPreview } from '#app/components/lists/queue.tsx'
import { ShareCells, ShareFilters, ShareHeadCells } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { nextItemUrl, queueContext, queueSent, runBatch, selectedIds } from '#app/.server/queue.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { EditShareDialog, editSchema } from './edit-share-dialog.tsx'
import { RowLink } from '#app/components/lists/row-action.tsx'
import { TextSep, TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

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
    const context = await queueContext(request, token, { shareIds: page.list.map((s) => s.id) })
    return {
      title: await pageTitle(request, 'menu.adminShares'),
      page,
      ...context,
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

/**
 * The row's own approve (or recover) button sits in the queue form, so it names its share in its
 * value (`approve:12`); the confirm dialogs of the other moves post `intent` and `id`.
 */
const ROW_MOVE = /^(approve|recover):(\d+)$/

/** The batch bar's moves (decision 125): approve and take down; a ban stays one share at a time, after its confirm step. */
const BATCH_MOVES = { 'batch-approve': 'approve', 'batch-takeDown': 'takeDown' } as const satisfies Record<string, ShareAdminMove>

/** A row action's failure (`error`, above the list) or the edit form's result (on the form). */
type ActionResult = { error: string; confirmLogout?: boolean; edit?: undefined; intent?: 'batch' } | { error?: undefined; edit: { id: string; result: SubmissionResult<string[]> } }

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['edit', ...Object.keys(SHARE_ADMIN_MOVES), ...Object.keys(BATCH_MOVES), ROW_MOVE])
  const intent = String(formData.get('intent') ?? '')
  // What the toast says is what was done: an approval is not an "edit" (issue 23).
  const done = (key = 'common.editSuccess', to = listUrl(request, DIALOGS)) => redirectWithToast(request, to, { type: 'success', key })
  if (Object.hasOwn(BATCH_MOVES, intent)) {
    const parsed = adminShareBatchSchema.safeParse({ ids: selectedIds(formData), move: BATCH_MOVES[intent as keyof typeof BATCH_MOVES] })
    return runBatch(request, formData, parsed, (body) => api(request, sharesApi.adminBatch, { token, body }), DIALOGS)
  }
  const row = ROW_MOVE.exec(intent)
  if (row) {
    const id = Number(row[2])
    try {
      await api(request, sharesApi.adminUpdate, { token, body: { id, status: SHARE_ADMIN_MOVES.approve } })
    } catch (e) {
      return rowRefusal(request, e, { sent: queueSent(formData) })
    }
    return done(`shares.moved.${row[1]}`, nextItemUrl(request, formData, [id], DIALOGS))
  }
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
  const move = parsed.data.intent
  try {
    await api(request, sharesApi.adminUpdate, { token, body: { id: parsed.data.id, status: SHARE_ADMIN_MOVES[move] } })
  } catch (e) {
    return rowRefusal(request, e)
  }
  return done(`shares.moved.${move}`, nextItemUrl(request, formData, [parsed.data.id], DIALOGS))
}

/** A row's approve (or recover): a submit button of the queue form around the table. */
function MoveButton({ id, move, label, title }: { id: number; move: 'approve' | 'recover'; label: string; title: string }) {
  const pending = useIsPending({ intent: `${move}:${id}` })
  return (
    <Button
      type="submit"
      name="intent"
      value={`${move}:${id}`}
      size="compact-xs"
      variant="light"
      color="green"
      loading={pending}
      aria-label={`${label} ${title}`}
    >
      {label}
    </Button>
  )
}

export default function AdminShares() {
  const { t } = useTranslation()
  const { page, toBan, toTakeDown, toEdit, history, contents, sellers } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ActionResult | undefined
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
      queue={{
        ids: page.list.map((s) => s.id),
        actions: [
          { intent: 'batch-approve', label: t('shares.admin.approveSelected'), accessKey: 'a', color: 'green' },
          { intent: 'batch-takeDown', label: t('shares.admin.takeDownSelected'), accessKey: 't', color: 'orange' },
        ],
      }}
      head={<ShareHeadCells withSeller />}
      actions
      row={(s) => (
        <Table.Tr key={s.id}>
          {adminMovesFrom(s.status).length ? <SelectCell id={s.id} label={s.title} /> : <Table.Td />}
          <ShareCells share={s} withSeller>
            <ShareContentPreview content={contents[s.id]} />
            <SellerRecord seller={sellers[s.user_name]} />
          </ShareCells>
          <Table.Td className="ps-actions">
            <Group gap={4} maw={180}>
              {/* The queue's decision first: fewest keys to it in a text browser (issue 23). */}
              <TextSeparated>
                {adminMovesFrom(s.status).map((move) =>
                  move === 'approve' ? (
                    <MoveButton
                      key={move}
                      id={s.id}
                      move={s.status === 'reported_invalid' ? 'recover' : 'approve'}
                      title={s.title}
                      // SPEC §4: a taken-down share is recovered, a new one approved.
                      label={s.status === 'reported_invalid' ? t('shares.admin.recover') : t('shares.admin.approve')}
                    />
                  ) : (
                    <RowLink
                      key={move}
                      to={dialogs.open(move, s.id)}
                      label={t(`shares.admin.${move}`)}
                      item={s.title}
                      color={move === 'ban' ? 'red' : 'orange'}
                    />
                  ),
                )}
              </TextSeparated>
              {s.status === 'violation' ? (
                <Text size="xs" c="dimmed">
                  {t('shares.admin.final')}
                </Text>
              ) : null}
              <TextSep />
              <Button component="a" href={`/share/${s.unicode}`} target="_blank" rel="noopener" size="compact-xs" variant="default">
                {t('shares.list.open')}
              </Button>
              <TextSep />
              <RowLink to={dialogs.open('edit', s.id)} label={t('shares.admin.edit')} item={s.title} />
              <TextSep />
              <RowLink to={dialogs.open('history', s.id)} label={t('moderation.history')} item={s.title} variant="default" />
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData) ?? editGone ?? undefined} />
      {toBan ? (
        <ConfirmDialog
          title={t('shares.admin.confirmBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="ban"
          fields={{ id: toBan.id, rows: page.list.map((x) => x.id).join(',') }}
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
          fields={{ id: toTakeDown.id, rows: page.list.map((x) => x.id).join(',') }}
          confirmLabel={t('shares.admin.takeDown')}
          color="orange"
        >
          {t('shares.admin.confirmTakeDownText', toTakeDown)}
        </ConfirmDialog>
      ) : null}
      {history ? <HistoryDialog title={t('moderation.historyTitle', history)} events={history.events} closeTo={dialogs.closed} wide /> : null}
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
