import { Button, Group, Stack, Table, Text, TextInput } from '@mantine/core'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { appealsApi } from '#contract/moderation.ts'
import { shareListQuerySchema, sharesApi } from '#contract/shares.ts'
import { DeleteDialog, UrlDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { AppealDialog, appealFormSchema, TakedownNote } from '#app/components/moderation/appeal-dialog.tsx'
import { QrCode } from '#app/components/shares/qr-code.tsx'
import { CopyLinkButton, PublishRequirements, ShareCells, ShareFilters, ShareHeadCells } from '#app/components/shares/shares.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { fieldError, pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { qrSvg } from '#app/.server/qr.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { TextSep } from '#app/components/layout/text-mode.tsx'
import { RowLink } from '#app/components/lists/row-action.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/**
 * `?delete=<id>` opens the delete confirm, `?link=<id>` the share link with its QR code, `?appeal=<id>`
 * the appeal form of a taken-down share (issue 9).
 */
const DIALOGS = ['delete', 'link', 'appeal'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, user } = await requireUser({ request, context })
  const url = new URL(request.url)
  const query = listQuery(request, shareListQuerySchema, ['title', 'type', 'status', 'sort', 'order'])
  try {
    const page = await api(request, sharesApi.list, { token, query })
    // Why the taken-down shares of this page are down, and their appeals (asked only when there are some).
    const takedowns = page.list.some((s) => s.status === 'reported_invalid') ? (await api(request, appealsApi.mine, { token })).list : []
    // The share a dialog is about: usually on this page; else asked for (and ignored when not ours).
    const dialogShare = async (key: (typeof DIALOGS)[number]) => {
      const id = Number(url.searchParams.get(key))
      if (!Number.isSafeInteger(id) || id <= 0) return null
      const s =
        page.list.find((x) => x.id === id) ??
        (await api(request, sharesApi.detail, { token, query: { id } }).catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return null
          throw e
        }))
      return s ? { id: s.id, title: s.title, unicode: s.unicode } : null
    }
    const toDelete = await dialogShare('delete')
    const linked = await dialogShare('link')
    const appealId = Number(url.searchParams.get('appeal'))
    const appealable = page.list.find((s) => s.id === appealId && takedowns.some((d) => d.share_id === s.id && !d.appeal))
    const shareUrl = (unicode: string) => `${url.origin}/share/${unicode}`
    return {
      title: await pageTitle(request, 'menu.myShares'),
      page,
      shareBase: `${url.origin}/share/`,
      canPublish: { phone: Boolean(user.phone), terms: Boolean(user.terms_agreed_at) },
      toDelete,
      takedowns,
      toAppeal: appealable ? { id: appealable.id, title: appealable.title, unicode: appealable.unicode } : null,
      link: linked ? { ...linked, url: shareUrl(linked.unicode), qr: await qrSvg(shareUrl(linked.unicode), 200) } : null,
    }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.object({ intent: z.literal('delete'), id: z.coerce.number().int().positive() })

/**
 * Delete after the confirm step (SPEC §8: 'Delete Success' / 'Delete Fail'); an appeal from its form,
 * whose refusal comes back to the form (dialog still open).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const back = listUrl(request, DIALOGS)
  const formData = await readForm(request, ['appeal', 'delete'])
  if (formData.get('intent') === 'appeal') {
    const submission = parseWithZod(formData, { schema: appealFormSchema })
    if (submission.status !== 'success') return data({ appeal: submission.reply() }, { status: 400 })
    try {
      await api(request, appealsApi.create, { token, body: submission.value })
    } catch (e) {
      const res = await fieldError(request, submission, e)
      return data({ appeal: res.data }, res.init ?? undefined)
    }
    return redirectWithToast(request, back, { type: 'success', key: 'moderation.appealed' })
  }
  const parsed = actionSchema.safeParse(Object.fromEntries(formData))
  if (!parsed.success) return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
  try {
    await api(request, sharesApi.delete, { token, query: { id: parsed.data.id } })
  } catch (e) {
    await rowError(request, e)
    return redirectWithToast(request, back, { type: 'error', key: 'common.deleteFail' })
  }
  return redirectWithToast(request, back, { type: 'success', key: 'common.deleteSuccess' })
}

export default function MyShares() {
  const { t } = useTranslation()
  const { page, shareBase, canPublish, toDelete, link, takedowns, toAppeal } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <ListPage
      title={t('menu.myShares')}
      create={{ to: '/share-manage/new', label: t('shares.new') }}
      filters={
        <>
          <PublishRequirements phone={canPublish.phone} terms={canPublish.terms} />
          <ShareFilters textFilter="title" />
        </>
      }
      page={page}
      minWidth={1000}
      head={<ShareHeadCells />}
      actions
      row={(s) => (
        <Table.Tr key={s.id}>
          <ShareCells share={s} />
          {/* Two buttons a line: the column stays narrow enough for the title to keep its room at 1366 px. */}
          <Table.Td className="ps-actions" miw={176}>
            <Group gap={4}>
              {s.status !== 'violation' ? (
                <Button
                  component={Link}
                  to={`/share-manage/edit/${s.id}`}
                  size="compact-xs"
                  variant="default"
                  aria-label={`${t('shares.list.edit')} ${s.title}`}
                >
                  {t('shares.list.edit')}
                </Button>
              ) : null}
              {/* " | " between neighbours for a text browser (issue 23); the copy button is there only with JavaScript (and CSS). */}
              {s.status !== 'violation' ? <TextSep /> : null}
              <CopyLinkButton url={shareBase + s.unicode} />
              <Button component={Link} to={dialogs.open('link', s.id)} preventScrollReset size="compact-xs" variant="default">
                {t('shares.list.linkAndQr')}
              </Button>
              <TextSep />
              <RowLink to={dialogs.open('delete', s.id)} label={t('shares.list.delete')} item={s.title} color="red" />
              {s.status === 'reported_invalid' ? <TextSep /> : null}
              {s.status === 'reported_invalid'
                ? takedowns
                    .filter((d) => d.share_id === s.id)
                    .map((d) => <TakedownNote key={d.share_id} takedown={d} appealTo={dialogs.open('appeal', s.id)} title={s.title} />)
                : null}
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      {toDelete ? (
        <DeleteDialog id={toDelete.id} closeTo={dialogs.closed} confirmLabel={t('shares.list.delete')}>
          {t('shares.list.confirmDeleteText', { title: toDelete.title, unicode: toDelete.unicode })}
        </DeleteDialog>
      ) : null}
      {toAppeal ? (
        <AppealDialog
          key={toAppeal.id}
          share={toAppeal}
          lastResult={actionData && 'appeal' in actionData ? actionData.appeal : undefined}
          action={dialogs.open('appeal', toAppeal.id)}
          closeTo={dialogs.closed}
        />
      ) : null}
      {link ? (
        <UrlDialog title={t('shares.list.linkTitle')} closeTo={dialogs.closed}>
          <Stack align="center">
            <Text size="sm" fw={500}>
              {link.title}
            </Text>
            <QrCode svg={link.qr} label={t('shares.list.qrLabel', { url: link.url })} />
            <TextInput
              readOnly
              value={link.url}
              label={t('shares.field.link')}
              description={t('shares.list.linkHint')}
              w="100%"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Group>
              <CopyLinkButton url={link.url} />
              <Button component="a" href={link.url} target="_blank" rel="noopener" size="compact-xs" variant="default">
                {t('shares.list.open')}
              </Button>
              <Button component={Link} to={dialogs.closed} replace preventScrollReset size="compact-xs" variant="subtle">
                {t('shares.list.close')}
              </Button>
            </Group>
          </Stack>
        </UrlDialog>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
