import { Group, Stack, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { adminReportListQuerySchema, REPORT_ACTIONS, type ReportAction, reportActionsFrom, reportBatchSchema, reportsApi } from '#contract/moderation.ts'
import { idSchema } from '#contract/users.ts'
import { ConfirmDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { SelectCell, SellerRecord, ShareContentPreview } from '#app/components/lists/queue.tsx'
import { ModerationFilters, ReportStatusBadge } from '#app/components/moderation/moderation.tsx'
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

/** `?recover=<id>`, `?take_down=<id>`, `?ban=<id>` open the confirm step of a report action (works without JavaScript). */
const DIALOGS = REPORT_ACTIONS
const FILTERS = ['status', 'unicode', 'reason', 'from', 'to'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminReportListQuerySchema, FILTERS)
  try {
    const page = await api(request, reportsApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    // The report a confirm step is about: open, on this page, and the action allowed for its share now.
    const asked = DIALOGS.map((action) => ({ action, report: page.list.find((r) => String(r.id) === params.get(action)) })).find(
      (x) => x.report && x.report.status === 'processing' && reportActionsFrom(x.report.current_share_status).includes(x.action),
    )
    let confirm = null
    if (asked?.report) {
      const r = asked.report
      // How many open reports of the share the action closes with this one.
      const open = await api(request, reportsApi.adminList, { token, query: { unicode: r.unicode, status: 'processing', pageNum: 1, pageSize: 1 } })
      confirm = { action: asked.action, id: r.id, title: r.share_title, unicode: r.unicode, count: open.total }
    }
    const context = await queueContext(request, token, { shareIds: page.list.map((r) => r.share_id) })
    return { title: await pageTitle(request, 'menu.reportManage'), page, confirm, ...context }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.object({ intent: z.enum(REPORT_ACTIONS), id: idSchema })

/** The batch bar's actions (decision 125): take down and recover; a ban stays one report at a time, after its confirm step. */
const BATCH_ACTIONS = { 'batch-take_down': 'take_down', 'batch-recover': 'recover' } as const satisfies Record<string, ReportAction>

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, [...REPORT_ACTIONS, ...Object.keys(BATCH_ACTIONS)])
  const intent = String(formData.get('intent') ?? '')
  if (Object.hasOwn(BATCH_ACTIONS, intent)) {
    const batch = reportBatchSchema.safeParse({ ids: selectedIds(formData), action: BATCH_ACTIONS[intent as keyof typeof BATCH_ACTIONS] })
    return runBatch(request, formData, batch, (body) => api(request, reportsApi.adminBatch, { token, body }), DIALOGS)
  }
  const parsed = actionSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  try {
    await api(request, reportsApi.adminHandle, { token, body: { id: parsed.data.id, action: parsed.data.intent } })
  } catch (e) {
    return rowRefusal(request, e)
  }
  return redirectWithToast(request, nextItemUrl(request, formData, [parsed.data.id], DIALOGS), { type: 'success', key: 'moderation.reportDone' })
}

const ACTION_COLORS: Record<ReportAction, string> = { recover: 'green', take_down: 'orange', ban: 'red' }

/** The admin's report queue (SPEC §2 /system/report-manage, §3 Report, §4 actions). */
export default function ReportManage() {
  const { t } = useTranslation()
  const { page, confirm, contents, sellers } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <ListPage
      title={t('menu.reportManage')}
      filters={<ModerationFilters kind="reports" />}
      page={page}
      minWidth={1100}
      queue={{
        ids: page.list.map((r) => r.id),
        actions: [
          { intent: 'batch-take_down', label: t('moderation.batch.take_down'), accessKey: 't', color: 'orange' },
          { intent: 'batch-recover', label: t('moderation.batch.recover'), accessKey: 'c', color: 'green' },
        ],
      }}
      head={['id', 'createdAt', 'status', 'unicode', 'reason', 'shareStatus', 'reporter'].map((f) => t(`moderation.field.${f}`))}
      actions
      row={(r) => (
        <Table.Tr key={r.id}>
          {r.status === 'processing' ? <SelectCell id={r.id} label={`#${r.id} ${r.share_title}`} /> : <Table.Td />}
          <Table.Td>{r.id}</Table.Td>
          <Table.Td>
            <DateTimeCell iso={r.created_at} />
          </Table.Td>
          <Table.Td>
            <ReportStatusBadge status={r.status} />
            {r.action ? (
              <Text size="xs" c="dimmed" mt={2}>
                {t('moderation.handledBy', { action: t(`moderation.action.${r.action}`), admin: r.handled_by ?? '—' })}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td maw={220}>
            <ShareCodeLink unicode={r.unicode} newTab />
            <Text size="xs" c="dimmed" lineClamp={2}>
              {r.share_title}
            </Text>
            <ShareContentPreview content={contents[r.share_id]} />
            <SellerRecord seller={contents[r.share_id] ? sellers[contents[r.share_id]!.user_name] : undefined} />
          </Table.Td>
          <Table.Td maw={280}>
            <Text size="sm" fw={500}>
              {t(`moderation.reason.${r.reason}`)}
            </Text>
            {r.description ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} lineClamp={4}>
                {r.description}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td>
            <Stack gap={2} align="flex-start">
              <ShareStatusBadge status={r.share_status} />
              {r.current_share_status !== r.share_status ? <ShareStatusBadge status={r.current_share_status} /> : null}
            </Stack>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{r.reporter_name ?? t('moderation.visitor')}</Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {r.reporter_ip}
            </Text>
          </Table.Td>
          <Table.Td className="ps-actions">
            {r.status === 'processing' ? (
              <Group gap={4} maw={150}>
                <TextSeparated>
                {reportActionsFrom(r.current_share_status).map((a) => (
                  <RowLink key={a} to={dialogs.open(a, r.id)} label={t(`moderation.action.${a}`)} item={`#${r.id}`} color={ACTION_COLORS[a]} />
                ))}
                </TextSeparated>
              </Group>
            ) : null}
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData)} />
      {confirm ? (
        <ConfirmDialog
          title={t(`moderation.confirm.${confirm.action}Title`)}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent={confirm.action}
          fields={{ id: confirm.id, rows: page.list.map((x) => x.id).join(',') }}
          confirmLabel={t(`moderation.action.${confirm.action}`)}
          color={ACTION_COLORS[confirm.action]}
        >
          {t(`moderation.confirm.${confirm.action}Text`, confirm)}
        </ConfirmDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
