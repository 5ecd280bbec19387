import { Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import { adminAppealListQuerySchema, APPEAL_ACTIONS, type Appeal, appealBatchSchema, appealsApi } from '#contract/moderation.ts'
import { idSchema } from '#contract/users.ts'
import { HistoryDialog } from '#app/components/audit/history-dialog.tsx'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { SelectCell, SellerRecord, ShareContentPreview } from '#app/components/lists/queue.tsx'
import { AppealStatusBadge, ModerationFilters } from '#app/components/moderation/moderation.tsx'
import { DateTimeCell, ShareCodeLink, ShareStatusBadge } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { nextItemUrl, queueContext, runBatch, selectedIds } from '#app/.server/queue.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { RowLink } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** `?view=<id>` shows an appeal with its share's history; `?approve=<id>` / `?ban=<id>` confirm a decision. */
const DIALOGS = ['view', ...APPEAL_ACTIONS] as const
const FILTERS = ['appeal_status', 'unicode', 'from', 'to'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminAppealListQuerySchema, FILTERS)
  try {
    const page = await api(request, appealsApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const find = (key: string) => page.list.find((a) => String(a.id) === params.get(key)) ?? null
    const viewed = find('view')
    const decision = APPEAL_ACTIONS.map((action) => ({ action, appeal: find(action) })).find((x) => x.appeal?.appeal_status === 'pending') ?? null
    const history = viewed ? (await api(request, auditApi.adminList, { token, query: { subject: `share:${viewed.share_id}` } })).list : []
    const context = await queueContext(request, token, { shareIds: page.list.map((a) => a.share_id), names: page.list.map((a) => a.seller_name) })
    return {
      title: await pageTitle(request, 'menu.appealManage'),
      page,
      viewed,
      history,
      ...context,
      decision: decision?.appeal ? { action: decision.action, appeal: decision.appeal } : null,
    }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.object({ intent: z.enum(APPEAL_ACTIONS), id: idSchema })

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, [...APPEAL_ACTIONS, 'batch-approve'])
  // The batch bar approves (decision 125); a ban stays one appeal at a time, after its confirm step.
  if (formData.get('intent') === 'batch-approve') {
    const batch = appealBatchSchema.safeParse({ ids: selectedIds(formData), action: 'approve' })
    return runBatch(request, formData, batch, (body) => api(request, appealsApi.adminBatch, { token, body }), DIALOGS)
  }
  const parsed = actionSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  try {
    await api(request, appealsApi.adminHandle, { token, body: { id: parsed.data.id, action: parsed.data.intent } })
  } catch (e) {
    return rowRefusal(request, e)
  }
  return redirectWithToast(request, nextItemUrl(request, formData, [parsed.data.id], DIALOGS), { type: 'success', key: 'moderation.appealDone' })
}

function Reasons({ appeal }: { appeal: Appeal }) {
  const { t } = useTranslation()
  return (
    <>{appeal.reasons.length ? appeal.reasons.map((r) => t(`moderation.reason.${r}`)).join(t('moderation.separator')) : t('moderation.takedown.byAdmin')}</>
  )
}

/** The admin's appeals (SPEC §2 /system/appeal-manage, §3 Appeal, §4 view / approve / ban as violation). */
export default function AppealManage() {
  const { t } = useTranslation()
  const { page, viewed, history, decision, contents, sellers } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  const labels = (a: Appeal) => ({ title: a.share_title, unicode: a.unicode, seller: a.seller_name })
  return (
    <ListPage
      title={t('menu.appealManage')}
      filters={<ModerationFilters kind="appeals" />}
      page={page}
      minWidth={1100}
      queue={{
        ids: page.list.map((a) => a.id),
        actions: [{ intent: 'batch-approve', label: t('moderation.batch.approveAppeals'), accessKey: 'a', color: 'green' }],
      }}
      head={['id', 'appealedAt', 'unicode', 'seller', 'takedownReasons', 'description', 'appealStatus'].map((f) => t(`moderation.field.${f}`))}
      actions
      row={(a) => (
        <Table.Tr key={a.id}>
          {a.appeal_status === 'pending' ? <SelectCell id={a.id} label={`#${a.id} ${a.share_title}`} /> : <Table.Td />}
          <Table.Td>{a.id}</Table.Td>
          <Table.Td>
            <DateTimeCell iso={a.createdAt} />
          </Table.Td>
          <Table.Td maw={220}>
            <ShareCodeLink unicode={a.unicode} newTab />
            <Text size="xs" c="dimmed" lineClamp={2}>
              {a.share_title}
            </Text>
            <ShareStatusBadge status={a.share_status} />
            <ShareContentPreview content={contents[a.share_id]} />
          </Table.Td>
          <Table.Td miw={160}>
            {a.seller_name}
            <SellerRecord seller={sellers[a.seller_name]} />
          </Table.Td>
          <Table.Td maw={180}>
            <Text size="sm">
              <Reasons appeal={a} />
            </Text>
          </Table.Td>
          <Table.Td maw={300}>
            <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {a.description}
            </Text>
          </Table.Td>
          <Table.Td>
            <AppealStatusBadge status={a.appeal_status} />
            {a.handled_by ? (
              <Text size="xs" c="dimmed" mt={2}>
                {a.handled_by}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td className="ps-actions">
            {/* At most two buttons a line: side by side, "Ban as violation" made the column 277 px wide (issue 23). */}
            <Group gap={4} maw={170}>
              <TextSeparated>
                <RowLink to={dialogs.open('view', a.id)} label={t('moderation.view')} item={`#${a.id}`} variant="default" />
                {a.appeal_status === 'pending' && a.share_status === 'reported_invalid'
                  ? APPEAL_ACTIONS.map((action) => (
                      <RowLink
                        key={action}
                        to={dialogs.open(action, a.id)}
                        label={t(`moderation.appealAction.${action}`)}
                        item={`#${a.id}`}
                        color={action === 'approve' ? 'green' : 'red'}
                      />
                    ))
                  : null}
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData)} />
      {decision ? (
        <ConfirmDialog
          title={t(decision.action === 'approve' ? 'moderation.confirm.approveTitle' : 'moderation.confirm.appealBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent={decision.action}
          fields={{ id: decision.appeal.id, rows: page.list.map((x) => x.id).join(',') }}
          confirmLabel={t(`moderation.appealAction.${decision.action}`)}
          color={decision.action === 'approve' ? 'green' : 'red'}
        >
          {t(decision.action === 'approve' ? 'moderation.confirm.approveText' : 'moderation.confirm.appealBanText', labels(decision.appeal))}
        </ConfirmDialog>
      ) : null}
      {viewed ? (
        <HistoryDialog
          title={t('moderation.historyTitle', { title: viewed.share_title, unicode: viewed.unicode })}
          events={history}
          closeTo={dialogs.closed}
          wide
        >
          <Group gap="xs">
            <ShareStatusBadge status={viewed.share_status} />
            <AppealStatusBadge status={viewed.appeal_status} />
          </Group>
          <Text size="sm">
            {t('moderation.field.takedownReasons')}: <Reasons appeal={viewed} />
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {viewed.description}
          </Text>
        </HistoryDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
