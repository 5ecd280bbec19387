import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { ColorSwatch, Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { idSchema, pageQuerySchema } from '#contract/users.ts'
import { notificationsApi } from '#contract/messages.ts'
import { DeleteDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { MessageText } from '#app/components/messages/message-text.tsx'
import { DateTimeCell } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { createSchema, editSchema, NotificationDialog } from './notification-dialog.tsx'
import { RowLink } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** `?create=1`, `?edit=<id>`, `?delete=<id>` open the forms (URL dialogs, working without JavaScript). */
const DIALOGS = ['create', 'edit', 'delete'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, pageQuerySchema, [])
  try {
    const page = await api(request, notificationsApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const find = (key: string) => page.list.find((n) => n.id === Number(params.get(key))) ?? null
    return { title: await pageTitle(request, 'menu.notificationList'), page, creating: params.has('create'), toEdit: find('edit'), toDelete: find('delete') }
  } catch (e) {
    return pageError(request, e)
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

type ActionResult =
  { error: string; form?: undefined } | { error?: undefined; form: { intent: 'create' | 'edit'; id: string; result: SubmissionResult<string[]> } }

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['create', 'edit', 'delete'])
  const back = listUrl(request, DIALOGS)
  const intent = formData.get('intent')
  if (intent === 'create' || intent === 'edit') {
    const id = String(formData.get('id') ?? '')
    const submission = parseWithZod(formData, { schema: intent === 'create' ? createSchema : editSchema })
    if (submission.status !== 'success') return data<ActionResult>({ form: { intent, id, result: submission.reply() } }, { status: 400 })
    try {
      if (intent === 'edit') await api(request, notificationsApi.adminUpdate, { token, body: submission.value as z.output<typeof editSchema> })
      else await api(request, notificationsApi.adminCreate, { token, body: submission.value })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data<ActionResult>({ form: { intent, id, result: res.data } }, res.init ?? undefined)
    }
    return redirectWithToast(request, back, { type: 'success', key: intent === 'create' ? 'messages.notificationCreated' : 'messages.notificationUpdated' })
  }
  if (intent === 'delete') {
    const id = idSchema.safeParse(formData.get('id'))
    if (!id.success) return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
    try {
      await api(request, notificationsApi.adminDelete, { token, query: { id: id.data } })
    } catch (e) {
      await rowError(request, e)
      return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
    }
    return redirectWithToast(request, back, { type: 'success', key: 'common.deleteSuccess' })
  }
  return data<ActionResult>({ error: 'errors.badRequest' }, { status: 400 })
}

/** SPEC §2 /system/notification-list: the system notifications every user sees, by priority. */
export default function NotificationList() {
  const { t } = useTranslation()
  const { page, creating, toEdit, toDelete } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  const formResult = (intent: 'create' | 'edit', id: string) =>
    actionData?.form?.intent === intent && actionData.form.id === id ? actionData.form.result : undefined
  return (
    <ListPage
      title={t('menu.notificationList')}
      create={{ to: dialogs.open('create', 1), label: t('messages.notificationNew') }}
      page={page}
      minWidth={900}
      head={[
        t('messages.field.title'),
        { label: t('messages.field.priority'), right: true },
        t('messages.field.labelColor'),
        t('messages.field.content'),
        t('messages.field.updatedAt'),
      ]}
      actions
      row={(n) => (
        <Table.Tr key={n.id} data-testid="notification-row">
          <Table.Td>{n.title}</Table.Td>
          <Table.Td ta="right">{n.priority}</Table.Td>
          <Table.Td>
            {/* The colour itself, named beside it — not an upper-case badge reading 'ORANGE-RED' (issue 23). */}
            <Group gap={6} wrap="nowrap">
              <ColorSwatch
                color={`var(--mantine-color-${n.label_color === 'orangered' ? 'orange' : n.label_color}-6)`}
                size={14}
                withShadow={false}
                aria-hidden
              />
              <Text size="sm">{t(`messages.labelColors.${n.label_color}`)}</Text>
            </Group>
          </Table.Td>
          <Table.Td maw={360}>
            <Text size="sm" lineClamp={3}>
              <MessageText text={n.content} />
            </Text>
          </Table.Td>
          <Table.Td>
            <DateTimeCell iso={n.updated_at} />
          </Table.Td>
          <Table.Td className="ps-actions">
            <Group gap={4}>
              <TextSeparated>
              <RowLink to={dialogs.open('edit', n.id)} label={t('messages.edit')} item={n.title} variant="default" />
              <RowLink to={dialogs.open('delete', n.id)} label={t('messages.delete')} item={n.title} color="red" />
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      {creating ? (
        <NotificationDialog notification={null} lastResult={formResult('create', '')} action={dialogs.open('create', 1)} closeTo={dialogs.closed} />
      ) : null}
      {toEdit ? (
        <NotificationDialog
          notification={toEdit}
          lastResult={formResult('edit', String(toEdit.id))}
          action={dialogs.open('edit', toEdit.id)}
          closeTo={dialogs.closed}
        />
      ) : null}
      {toDelete ? (
        <DeleteDialog id={toDelete.id} closeTo={dialogs.closed} confirmLabel={t('messages.delete')} title={t('messages.deleteTitle')}>
          {t('messages.deleteText', { title: toDelete.title })}
        </DeleteDialog>
      ) : null}
    </ListPage>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
