import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Group, Stack, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { auditApi } from '#contract/audit.ts'
import { idSchema } from '#contract/users.ts'
import {
  adminWithdrawalListQuerySchema,
  type Withdrawal,
  withdrawalBatchProcessSchema,
  withdrawalBatchRejectSchema,
  withdrawalProcessSchema,
  withdrawalRejectSchema,
  withdrawalsApi,
} from '#contract/withdrawals.ts'
import { HistoryDialog } from '#app/components/audit/history-dialog.tsx'
import { DialogButtons, ConfirmDialog, UrlDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors, TextareaField, TextField } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { QueueField, SelectCell, SellerRecord } from '#app/components/lists/queue.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { WithdrawalCells, WithdrawalFilters, WithdrawalHeadCells } from '#app/components/withdrawals/withdrawals.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { nextItemUrl, queueContext, queueSent, runBatch, selectedIds } from '#app/.server/queue.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { RowLink } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/**
 * `?process=<id>`, `?reject=<id>` and `?payout=<id>` open a row's form, `?history=<id>` its audit trail
 * (issue 9); each works without JavaScript.
 */
const DIALOGS = ['process', 'reject', 'payout', 'history'] as const
type Dialog = Exclude<(typeof DIALOGS)[number], 'history'>
const FILTERS = ['status', 'keyword', 'from', 'to'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminWithdrawalListQuerySchema, FILTERS)
  try {
    const page = await api(request, withdrawalsApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    // The row a dialog is about, when it is still Pending (and, for a payout, payouts are configured).
    const target = (key: Dialog) =>
      page.list.find((w) => String(w.id) === params.get(key) && w.status === 'Pending' && (key !== 'payout' || page.alipayPayout)) ?? null
    const historyId = idSchema.safeParse(params.get('history'))
    const history = historyId.success
      ? { id: historyId.data, events: (await api(request, auditApi.adminList, { token, query: { subject: `withdrawal:${historyId.data}` } })).list }
      : null
    const { sellers } = await queueContext(request, token, { names: page.list.map((w) => w.username) })
    return {
      history,
      sellers,
      title: await pageTitle(request, 'menu.withdrawalManage'),
      page,
      toProcess: target('process'),
      toReject: target('reject'),
      toPayout: target('payout'),
    }
  } catch (e) {
    return pageError(request, e)
  }
}

type ActionData = { intent: 'process' | 'reject'; result: SubmissionResult<string[]> } | { intent: 'payout' | 'batch'; error: string; confirmLogout: boolean }

/**
 * The batch bar (decision 125): the ticked Pending withdrawals marked paid with one transfer order
 * number, or rejected with one reason; each as the row's own action would, a result per withdrawal.
 */
async function batchAction(request: Request, token: string, formData: FormData) {
  const process = formData.get('intent') === 'batch-process'
  const fields = { ids: selectedIds(formData), transaction_order: formData.get('transaction_order') ?? undefined, reason: formData.get('reason') ?? undefined }
  // Enter in the reject reason submits the form by its first button, "mark paid": a typed reason says the
  // admin meant to reject, so nothing is done and the page says which button does what (text browsers too).
  if (process && String(fields.reason ?? '').trim())
    return data({ intent: 'batch' as const, error: 'withdrawals.admin.reasonWithProcess', confirmLogout: false, sent: queueSent(formData) }, { status: 400 })
  return process
    ? runBatch(
        request,
        formData,
        withdrawalBatchProcessSchema.safeParse(fields),
        (body) => api(request, withdrawalsApi.adminBatchProcess, { token, body }),
        DIALOGS,
      )
    : runBatch(
        request,
        formData,
        withdrawalBatchRejectSchema.safeParse(fields),
        (body) => api(request, withdrawalsApi.adminBatchReject, { token, body }),
        DIALOGS,
      )
}

/**
 * The row actions: process (the transfer order number) and reject (the reason) post from their
 * dialog and come back to it with field errors; a payout posts from its confirm step, and a refusal
 * (Alipay's, say) is stated above the list.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['process', 'reject', 'payout', 'batch-process', 'batch-reject'])
  const intent = formData.get('intent')
  if (intent === 'batch-process' || intent === 'batch-reject') return batchAction(request, token, formData)
  // Back to the queue at the row after this one (decision 125).
  const back = nextItemUrl(request, formData, [Number(formData.get('id'))], DIALOGS)
  if (intent === 'process' || intent === 'reject') {
    const submission = parseWithZod(formData, { schema: intent === 'process' ? withdrawalProcessSchema : withdrawalRejectSchema })
    if (submission.status !== 'success') return data<ActionData>({ intent, result: submission.reply() }, { status: 400 })
    try {
      const v = submission.value
      if ('transaction_order' in v) await api(request, withdrawalsApi.adminProcess, { token, body: v })
      else await api(request, withdrawalsApi.adminReject, { token, body: v })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data<ActionData>({ intent, result: res.data }, res.init ?? undefined)
    }
    return redirectWithToast(request, back, { type: 'success', key: intent === 'process' ? 'withdrawals.processed' : 'withdrawals.rejected' })
  }
  const payout = z.object({ intent: z.literal('payout'), id: idSchema }).safeParse(Object.fromEntries(formData))
  if (!payout.success) return data({ msg: 'errors.badRequest' }, { status: 400 })
  try {
    await api(request, withdrawalsApi.adminPayout, { token, body: { id: payout.data.id } })
  } catch (e) {
    return rowRefusal(request, e, { intent: 'payout' as const }, ['withdrawals.payoutFailed', 'withdrawals.payoutUnknown'])
  }
  return redirectWithToast(request, back, { type: 'success', key: 'withdrawals.paidOut' })
}

/** The process or reject form of one withdrawal, in its URL dialog (a page section without JavaScript). */
function DecisionDialog({
  kind,
  w,
  last,
  closeTo,
  rows,
}: {
  kind: 'process' | 'reject'
  w: Withdrawal
  last?: SubmissionResult<string[]>
  closeTo: string
  rows: string
}) {
  const { t } = useTranslation()
  const schema = kind === 'process' ? withdrawalProcessSchema : withdrawalRejectSchema
  const [form, fields] = useForm<{ id: string; transaction_order?: string; reason?: string }, unknown>({
    id: `${kind}-${w.id}`,
    lastResult: last,
    constraint: getZodConstraint(schema),
    defaultValue: { id: String(w.id) },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const values = {
    id: w.id,
    actual: yuan(w.actualWithdrawalAmount),
    amount: yuan(w.withdrawalAmount),
    name: w.alipayRealName,
    account: w.alipayAccount,
    user: w.username,
  }
  return (
    <UrlDialog title={t(`withdrawals.admin.${kind}Title`, values)} closeTo={closeTo}>
      {/* Posts to this URL (dialog open): a refusal comes back here, at its field. */}
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="id" value={w.id} />
        <input type="hidden" name="rows" value={rows} />
        <Stack>
          <Text size="sm">{t(kind === 'process' ? 'withdrawals.admin.processText' : 'withdrawals.admin.rejectText', values)}</Text>
          {kind === 'process' ? (
            <TextField meta={fields.transaction_order} label={t('withdrawals.field.transactionOrder')} autoComplete="off" />
          ) : (
            <TextareaField meta={fields.reason} label={t('withdrawals.admin.reasonLabel')} autosize minRows={2} />
          )}
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons closeTo={closeTo} intent={kind} label={t(`withdrawals.admin.${kind}`)} color={kind === 'reject' ? 'red' : undefined} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}

/** The admin's withdrawal queue (SPEC §2 /system/withdrawal-manage). */
export default function WithdrawalManage() {
  const { t } = useTranslation()
  const { page, toProcess, toReject, toPayout, history, sellers } = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>() as ActionData | { msg: string } | undefined
  const dialogs = useUrlDialogs(DIALOGS)
  const rows = page.list.map((w) => w.id).join(',')
  const resultOf = (kind: 'process' | 'reject') => (last && 'intent' in last && last.intent === kind ? last.result : undefined)
  const rowMessages =
    last && 'intent' in last && (last.intent === 'payout' || last.intent === 'batch') ? rowErrors(last) : last && 'msg' in last ? [last.msg] : undefined
  return (
    <ListPage
      title={t('menu.withdrawalManage')}
      filters={<WithdrawalFilters filters={[...FILTERS]} />}
      page={page}
      minWidth={1150}
      queue={{
        ids: page.list.map((w) => w.id),
        actions: [
          {
            intent: 'batch-process',
            label: t('withdrawals.admin.processSelected'),
            accessKey: 'p',
            field: <QueueField name="transaction_order" label={t('withdrawals.field.transactionOrder')} maxLength={64} autoComplete="off" />,
          },
          {
            intent: 'batch-reject',
            label: t('withdrawals.admin.rejectSelected'),
            accessKey: 'r',
            color: 'red',
            field: <QueueField name="reason" label={t('withdrawals.admin.reasonLabel')} maxLength={200} />,
          },
        ],
      }}
      head={
        <>
          <Table.Th>{t('withdrawals.field.id')}</Table.Th>
          <Table.Th>{t('withdrawals.field.user')}</Table.Th>
          <WithdrawalHeadCells />
        </>
      }
      actions
      row={(w) => (
        <Table.Tr key={w.id}>
          {w.status === 'Pending' ? <SelectCell id={w.id} label={`#${w.id} ${w.username}`} /> : <Table.Td />}
          <Table.Td>{w.id}</Table.Td>
          <Table.Td miw={160}>
            {w.username}
            <SellerRecord seller={sellers[w.username]} />
          </Table.Td>
          <WithdrawalCells w={w} />
          <Table.Td className="ps-actions">
            {/* Wrapping within 190 px: in one line the column was 258 px and hid the transfer number at 1440 px (issue 23). */}
            <Group gap={4} maw={190}>
              {/* A " | " between neighbours, as lynx shows the row without CSS ("标记已付驳回" read as one word, issue 23). */}
              <TextSeparated>
                {w.status === 'Pending' ? (
                  <Group gap={4}>
                    <TextSeparated>
                      <RowLink to={dialogs.open('process', w.id)} label={t('withdrawals.admin.process')} item={`#${w.id}`} />
                      <RowLink to={dialogs.open('reject', w.id)} label={t('withdrawals.admin.reject')} item={`#${w.id}`} color="red" />
                      {page.alipayPayout ? (
                        <RowLink to={dialogs.open('payout', w.id)} label={t('withdrawals.admin.payout')} item={`#${w.id}`} color="teal" />
                      ) : null}
                    </TextSeparated>
                  </Group>
                ) : null}
                {/* After the decisions: fewest keys to them in a text browser (issue 23). */}
                <RowLink to={dialogs.open('history', w.id)} label={t('oversight.user.history')} item={`#${w.id}`} variant="default" />
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowMessages} />
      {history ? (
        <HistoryDialog title={t('oversight.history.withdrawal', { item: `#${history.id}` })} events={history.events} closeTo={dialogs.closed} />
      ) : null}
      {toProcess ? <DecisionDialog kind="process" w={toProcess} last={resultOf('process')} closeTo={dialogs.closed} rows={rows} /> : null}
      {toReject ? <DecisionDialog kind="reject" w={toReject} last={resultOf('reject')} closeTo={dialogs.closed} rows={rows} /> : null}
      {toPayout ? (
        <ConfirmDialog
          title={t('withdrawals.admin.payoutTitle', { id: toPayout.id })}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="payout"
          fields={{ id: toPayout.id, rows }}
          confirmLabel={t('withdrawals.admin.payout')}
          color="teal"
        >
          {t('withdrawals.admin.payoutText', { actual: yuan(toPayout.actualWithdrawalAmount), name: toPayout.alipayRealName, account: toPayout.alipayAccount })}
        </ConfirmDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
