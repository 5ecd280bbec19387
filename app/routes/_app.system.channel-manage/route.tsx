import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Badge, Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { adminChannelListQuerySchema, type Channel, CHANNEL_STATUSES, channelsApi } from '#contract/channels.ts'
import { idSchema } from '#contract/users.ts'
import { useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { DateTimeCell, yuan } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ChannelDialog, createFormSchema, editFormSchema } from './channel-dialog.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'
import { RowLink, RowPost } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** `?new=1` opens the create form, `?edit=<id>` the edit form of a channel on this page. */
const DIALOGS = ['new', 'edit'] as const
const FILTERS = ['status', 'keyword'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminChannelListQuerySchema, FILTERS)
  try {
    const page = await api(request, channelsApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const editId = Number(params.get('edit'))
    return {
      title: await pageTitle(request, 'menu.channelManage'),
      page,
      creating: params.has('new'),
      toEdit: page.list.find((c) => c.id === editId) ?? null,
    }
  } catch (e) {
    return pageError(request, e)
  }
}

const statusSchema = z.object({ intent: z.enum(['enable', 'disable']), id: idSchema })

/** A row action's failure (above the list), or a form's result (on the form: `form` names which). */
type ActionResult = { error: string; confirmLogout?: boolean; form?: undefined } | { error?: undefined; form: { key: string; result: SubmissionResult<string[]> } }

/** POST: create, edit (/api/channels/admin/create|update), enable or disable a channel. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['create', 'edit', 'enable', 'disable'])
  const intent = formData.get('intent')
  const back = (key: string) => redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key })
  if (intent === 'create' || intent === 'edit') {
    const key = intent === 'create' ? 'new' : `edit-${String(formData.get('id') ?? '')}`
    const submission = parseWithZod(formData, { schema: intent === 'create' ? createFormSchema : editFormSchema })
    if (submission.status !== 'success') return data<ActionResult>({ form: { key, result: submission.reply() } }, { status: 400 })
    try {
      if (intent === 'create') await api(request, channelsApi.adminCreate, { token, body: submission.value as z.input<typeof createFormSchema> })
      else await api(request, channelsApi.adminUpdate, { token, body: submission.value as z.input<typeof editFormSchema> })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data<ActionResult>({ form: { key, result: res.data } }, res.init ?? undefined)
    }
    return back(intent === 'create' ? 'channels.created' : 'channels.saved')
  }
  const parsed = statusSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data<ActionResult>({ error: 'errors.badRequest' }, { status: 400 })
  try {
    await api(request, channelsApi.adminUpdate, { token, body: { id: parsed.data.id, status: parsed.data.intent } })
  } catch (e) {
    return rowRefusal<ActionResult>(request, e, { error: '', form: undefined })
  }
  return back(parsed.data.intent === 'enable' ? 'channels.enabled' : 'channels.disabledToast')
}

function Filters() {
  const { t } = useTranslation()
  return (
    <FilterForm>
      <TextFilter name="keyword" label={t('channels.admin.filterKeyword')} />
      <SelectFilter name="status" label={t('channels.admin.filterStatus')} options={CHANNEL_STATUSES.map((s) => [s, t(`channels.statuses.${s}`)] as const)} />
    </FilterForm>
  )
}

/** Enable or disable: one POST, no confirm step (nothing is lost; it can be turned back at once). */
function StatusButton({ channel }: { channel: Channel }) {
  const { t } = useTranslation()
  const to = channel.status === 'enable' ? 'disable' : 'enable'
  return <RowPost fields={{ id: channel.id }} intent={to} label={t(`channels.admin.${to}`)} item={channel.name} color={to === 'disable' ? 'orange' : 'green'} />
}

export default function ChannelManage() {
  const { t } = useTranslation()
  const { page, creating, toEdit } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  const resultFor = (key: string) => (actionData?.form?.key === key ? actionData.form.result : undefined)
  return (
    <ListPage
      title={t('menu.channelManage')}
      create={{ to: dialogs.open('new', 1), label: t('channels.admin.new') }}
      filters={<Filters />}
      page={page}
      minWidth={980}
      head={[
        t('channels.field.name'),
        { label: t('channels.column.price'), right: true },
        { label: t('channels.column.feeRate'), right: true },
        { label: t('channels.column.minimumIncome'), right: true },
        { label: t('channels.column.duration'), right: true },
        t('channels.field.status'),
        { label: t('channels.field.openSellers'), right: true },
        t('channels.field.updatedAt'),
      ]}
      actions
      row={(c) => (
        <Table.Tr key={c.id}>
          <Table.Td miw={160}>
            <Text size="sm" fw={500}>
              {c.name}
            </Text>
          </Table.Td>
          <Table.Td ta="right">{yuan(c.price)}</Table.Td>
          <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
            {t('channels.percent', { rate: c.fee_rate })}
          </Table.Td>
          <Table.Td ta="right">{c.minimum_income > 0 ? yuan(c.minimum_income) : t('channels.none')}</Table.Td>
          <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
            {t('channels.days', { count: c.service_duration })}
          </Table.Td>
          <Table.Td>
            <Badge variant="light" color={c.status === 'enable' ? 'green' : 'gray'} style={{ minWidth: 'max-content' }}>
              {t(`channels.statuses.${c.status}`)}
            </Badge>
          </Table.Td>
          <Table.Td ta="right">{c.open_sellers}</Table.Td>
          <Table.Td>
            <DateTimeCell iso={c.updated_at} />
          </Table.Td>
          <Table.Td className="ps-actions">
            <Group gap={4} wrap="nowrap">
              <TextSeparated>
              <RowLink to={dialogs.open('edit', c.id)} label={t('channels.admin.edit')} item={c.name} />
              <StatusButton channel={c} />
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData)} />
      {creating ? <ChannelDialog key="new" lastResult={resultFor('new')} action={dialogs.open('new', 1)} closeTo={dialogs.closed} /> : null}
      {toEdit ? (
        <ChannelDialog
          key={toEdit.id}
          channel={toEdit}
          lastResult={resultFor(`edit-${toEdit.id}`)}
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
