import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Group, Table, Text } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { type AdminPackage, adminPackageListQuerySchema, PACKAGE_STATUSES, packagesApi, type PackageStatus } from '#contract/packages.ts'
import { DeleteDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, rowErrors } from '#app/components/forms/fields.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { DateTimeCell, yuan } from '#app/components/shares/shares.tsx'
import { PackageStatusBadge } from '#app/components/subscriptions/subscriptions.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { fieldError, pageError, rowError, rowRefusal } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { createSchema, editSchema, PackageDialog } from './package-dialog.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'
import { RowLink, RowPost } from '#app/components/lists/row-action.tsx'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** `?create=1` opens the create form, `?edit=<id>` the edit form, `?delete=<id>` the delete confirm (SPEC §8). */
const DIALOGS = ['create', 'edit', 'delete'] as const
const FILTERS = ['keyword', 'status'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const query = listQuery(request, adminPackageListQuerySchema, FILTERS)
  try {
    const page = await api(request, packagesApi.adminList, { token, query })
    const params = new URL(request.url).searchParams
    const find = (key: string) => page.list.find((p) => p.id === Number(params.get(key))) ?? null
    return { title: await pageTitle(request, 'menu.packageManage'), page, creating: params.has('create'), toEdit: find('edit'), toDelete: find('delete') }
  } catch (e) {
    return pageError(request, e)
  }
}

const statusSchema = z.object({ intent: z.literal('status'), id: z.coerce.number().int().positive(), status: z.enum(PACKAGE_STATUSES) })
const deleteSchema = z.object({ intent: z.literal('delete'), id: z.coerce.number().int().positive() })

/** A row action's failure (`error`, above the list) or a form's result (on the form). */
type ActionResult =
  { error: string; confirmLogout?: boolean; form?: undefined } | { error?: undefined; form: { intent: 'create' | 'edit'; id: string; result: SubmissionResult<string[]> } }

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const formData = await readForm(request, ['create', 'edit', 'delete', 'status'])
  const back = listUrl(request, DIALOGS)
  const intent = formData.get('intent')
  if (intent === 'create' || intent === 'edit') {
    const id = String(formData.get('id') ?? '')
    const submission = parseWithZod(formData, { schema: intent === 'create' ? createSchema : editSchema })
    if (submission.status !== 'success') return data<ActionResult>({ form: { intent, id, result: submission.reply() } }, { status: 400 })
    try {
      if (intent === 'create') await api(request, packagesApi.adminCreate, { token, body: submission.value })
      else await api(request, packagesApi.adminUpdate, { token, body: submission.value as z.output<typeof editSchema> })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data<ActionResult>({ form: { intent, id, result: res.data } }, res.init ?? undefined)
    }
    return redirectWithToast(request, back, { type: 'success', key: intent === 'create' ? 'subscriptions.packageCreated' : 'common.editSuccess' })
  }
  if (intent === 'delete') {
    // SPEC §8: 'Delete Success' or 'Delete Fail'.
    const parsed = deleteSchema.safeParse(Object.fromEntries(formData))
    if (!parsed.success) return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
    try {
      await api(request, packagesApi.adminDelete, { token, query: { id: parsed.data.id } })
    } catch (e) {
      await rowError(request, e)
      return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
    }
    return redirectWithToast(request, back, { type: 'success', key: 'common.deleteSuccess' })
  }
  const parsed = statusSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return data<ActionResult>({ error: 'errors.badRequest' }, { status: 400 })
  try {
    await api(request, packagesApi.adminUpdate, { token, body: { id: parsed.data.id, status: parsed.data.status } })
  } catch (e) {
    return rowRefusal<ActionResult>(request, e, { error: '', form: undefined })
  }
  return redirectWithToast(request, back, { type: 'success', key: 'common.editSuccess' })
}

function Filters() {
  const { t } = useTranslation()
  return (
    <FilterForm>
      <TextFilter name="keyword" label={t('subscriptions.field.name')} />
      <SelectFilter
        name="status"
        label={t('subscriptions.field.status')}
        options={PACKAGE_STATUSES.map((s) => [s, t(`subscriptions.statuses.${s}`)] as const)}
      />
    </FilterForm>
  )
}

/** On sale ↔ off shelf in one POST. */
function StatusButton({ pkg }: { pkg: AdminPackage }) {
  const { t } = useTranslation()
  const to: PackageStatus = pkg.status === 'on_sale' ? 'off_shelf' : 'on_sale'
  const label = to === 'on_sale' ? t('subscriptions.admin.putOnSale') : t('subscriptions.admin.takeOff')
  return <RowPost fields={{ id: pkg.id, status: to }} intent="status" label={label} item={pkg.name} color={to === 'on_sale' ? 'green' : 'orange'} />
}

export default function AdminPackages() {
  const { t } = useTranslation()
  const { page, creating, toEdit, toDelete } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  const formResult = (intent: 'create' | 'edit', id: string) =>
    actionData?.form?.intent === intent && actionData.form.id === id ? actionData.form.result : undefined
  return (
    <ListPage
      title={t('menu.packageManage')}
      create={{ to: dialogs.open('create', 1), label: t('subscriptions.admin.new') }}
      filters={<Filters />}
      page={page}
      minWidth={900}
      head={[
        t('subscriptions.field.name'),
        { label: t('subscriptions.field.downloadLimit'), right: true },
        { label: t('subscriptions.field.price'), right: true },
        { label: t('subscriptions.field.durationDays'), right: true },
        t('subscriptions.field.status'),
        { label: t('subscriptions.field.subscriptionCount'), right: true },
        t('subscriptions.field.createdAt'),
      ]}
      actions
      row={(p) => (
        <Table.Tr key={p.id}>
          <Table.Td miw={160} maw={260}>
            <Text size="sm" lineClamp={2} title={p.name}>
              {p.name}
            </Text>
          </Table.Td>
          <Table.Td ta="right">{p.download_limit}</Table.Td>
          <Table.Td ta="right">{yuan(p.price)}</Table.Td>
          <Table.Td ta="right">{p.duration_days}</Table.Td>
          <Table.Td>
            <PackageStatusBadge status={p.status} />
          </Table.Td>
          <Table.Td ta="right">
            <Text size="sm">{p.subscription_count}</Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('subscriptions.admin.opened', { count: p.opened_count })}
            </Text>
          </Table.Td>
          <Table.Td>
            <DateTimeCell iso={p.created_at} />
          </Table.Td>
          <Table.Td className="ps-actions">
            <Group gap={4} maw={200}>
              <TextSeparated>
              <RowLink to={dialogs.open('edit', p.id)} label={t('subscriptions.admin.edit')} item={p.name} variant="default" />
              <StatusButton pkg={p} />
              <RowLink to={dialogs.open('delete', p.id)} label={t('subscriptions.admin.delete')} item={p.name} color="red" />
              </TextSeparated>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      <FormErrors errors={rowErrors(actionData)} />
      {creating ? <PackageDialog pkg={null} lastResult={formResult('create', '')} action={dialogs.open('create', 1)} closeTo={dialogs.closed} /> : null}
      {toEdit ? (
        <PackageDialog
          key={toEdit.id}
          pkg={toEdit}
          lastResult={formResult('edit', String(toEdit.id))}
          action={dialogs.open('edit', toEdit.id)}
          closeTo={dialogs.closed}
        />
      ) : null}
      {toDelete ? (
        <DeleteDialog id={toDelete.id} closeTo={dialogs.closed} confirmLabel={t('subscriptions.admin.delete')}>
          {t('subscriptions.admin.confirmDeleteText', { name: toDelete.name })}
        </DeleteDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
