import { Button, Group, Stack, Table, Text, TextInput } from '@mantine/core'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { shareListQuerySchema, sharesApi } from '#contract/shares.ts'
import { ConfirmDialog, UrlDialog, useUrlDialogs } from '#app/components/dialogs/url-dialog.tsx'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { ListPage } from '#app/components/lists/list-page.tsx'
import { QrCode } from '#app/components/shares/qr-code.tsx'
import { CopyLinkButton, PublishRequirements, ShareCells, ShareFilters, ShareHeadCells } from '#app/components/shares/shares.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { qrSvg } from '#app/.server/qr.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'

/** `?delete=<id>` opens the delete confirm, `?link=<id>` the share link with its QR code. */
const DIALOGS = ['delete', 'link'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, user } = await requireUser({ request, context })
  const url = new URL(request.url)
  const query = listQuery(request, shareListQuerySchema, ['title', 'type', 'status', 'sort', 'order'])
  try {
    const page = await api(request, sharesApi.list, { token, query })
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
    const shareUrl = (unicode: string) => `${url.origin}/share/${unicode}`
    return {
      title: await pageTitle(request, 'menu.myShares'),
      page,
      shareBase: `${url.origin}/share/`,
      canPublish: { phone: Boolean(user.phone), terms: Boolean(user.terms_agreed_at) },
      toDelete,
      link: linked ? { ...linked, url: shareUrl(linked.unicode), qr: await qrSvg(shareUrl(linked.unicode), 200) } : null,
    }
  } catch (e) {
    return pageError(request, e)
  }
}

const actionSchema = z.object({ intent: z.literal('delete'), id: z.coerce.number().int().positive() })

/** Delete after the confirm step (SPEC §8: 'Delete Success' / 'Delete Fail'). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const back = listUrl(request, DIALOGS)
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request)))
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
  const { page, shareBase, canPublish, toDelete, link } = useLoaderData<typeof loader>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <ListPage
      title={t('menu.myShares')}
      extra={
        <Button component={Link} to="/share-manage/new">
          {t('shares.new')}
        </Button>
      }
      filters={
        <>
          <PublishRequirements phone={canPublish.phone} terms={canPublish.terms} />
          <ShareFilters textFilter="title" />
        </>
      }
      page={page}
      minWidth={1000}
      head={
        <>
          <ShareHeadCells />
          <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
        </>
      }
      row={(s) => (
        <Table.Tr key={s.id}>
          <ShareCells share={s} />
          {/* Two buttons a line: the column stays narrow enough for the title to keep its room at 1366 px. */}
          <Table.Td className="ps-actions" miw={176}>
            <Group gap={4}>
              {s.status !== 'violation' ? (
                <Button component={Link} to={`/share-manage/edit/${s.id}`} size="compact-xs" variant="default" aria-label={`${t('shares.list.edit')} ${s.title}`}>
                  {t('shares.list.edit')}
                </Button>
              ) : null}
              <CopyLinkButton url={shareBase + s.unicode} />
              <Button component={Link} to={dialogs.open('link', s.id)} preventScrollReset size="compact-xs" variant="default">
                {t('shares.list.linkAndQr')}
              </Button>
              <Button
                component={Link}
                to={dialogs.open('delete', s.id)}
                preventScrollReset
                size="compact-xs"
                color="red"
                variant="light"
                aria-label={`${t('shares.list.delete')} ${s.title}`}
              >
                {t('shares.list.delete')}
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    >
      {toDelete ? (
        <ConfirmDialog
          title={t('common.confirmDelete')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="delete"
          fields={{ id: toDelete.id }}
          confirmLabel={t('shares.list.delete')}
        >
          {t('shares.list.confirmDeleteText', { title: toDelete.title, unicode: toDelete.unicode })}
        </ConfirmDialog>
      ) : null}
      {link ? (
        <UrlDialog title={t('shares.list.linkTitle')} closeTo={dialogs.closed}>
          <Stack align="center">
            <Text size="sm" fw={500}>
              {link.title}
            </Text>
            <QrCode svg={link.qr} label={t('shares.list.qrLabel', { url: link.url })} />
            <TextInput readOnly value={link.url} label={t('shares.field.link')} description={t('shares.list.linkHint')} w="100%" onFocus={(e) => e.currentTarget.select()} />
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
