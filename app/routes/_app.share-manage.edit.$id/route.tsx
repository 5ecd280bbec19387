import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { sameYuan } from '#contract/money.ts'
import { type OwnShare, shareCreateSchema, type ShareCreateInput, sharesApi, shareUpdateSchema } from '#contract/shares.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { ShareForm, type ShareFormValues } from '#app/components/shares/share-form.tsx'
import { ShareStatusBadge } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { fieldError, pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import type { MenuHandle } from '#app/components/layout/AppLayout.tsx'

/** The caller's own share with its content; another seller's (or a missing) id is a 404 page. */
async function loadOwnShare(request: Request, token: string, idParam: string | undefined) {
  const id = Number(idParam)
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  try {
    return await api(request, sharesApi.detail, { token, query: { id } })
  } catch (e) {
    return pageError(request, e)
  }
}

/** Issue 11: the menu highlights "My shares" on this nested page (and the breadcrumbs end there). */
export const handle: MenuHandle = { menu: '/share-manage/search-table' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const share = await loadOwnShare(request, token, params.id)
  return { title: await pageTitle(request, 'shares.edit'), share }
}

/**
 * Only what changed is sent: the API sends a share back to review when the title, type, content or
 * extraction code is part of the update (DESIGN §3), so an unchanged field must not be.
 */
function changes(current: OwnShare, v: ShareCreateInput) {
  const code = v.type === 'netdisk' ? (v.extraction_code ?? '') : ''
  const body: Record<string, unknown> = { id: current.id }
  if (v.title !== current.title) body.title = v.title
  if (v.type !== current.type) body.type = v.type
  // A new link type needs its link even when the text stayed the same (shares.contentNeededForType).
  if (v.content !== current.content || (v.type !== current.type && v.type !== 'text')) body.content = v.content
  if (code !== (current.extraction_code ?? '') || (v.type !== current.type && v.type === 'netdisk')) body.extraction_code = code
  if (!sameYuan(v.price, current.price)) body.price = v.price
  if (v.subscription_status !== current.subscription_status) body.subscription_status = v.subscription_status
  return shareUpdateSchema.parse(body)
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const submission = parseWithZod(await readForm(request), { schema: shareCreateSchema })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  const current = await loadOwnShare(request, token, params.id)
  try {
    const body = changes(current, submission.value)
    if (Object.keys(body).length > 1) await api(request, sharesApi.update, { token, body })
  } catch (e) {
    return fieldError(request, submission, e)
  }
  return redirectWithToast(request, '/share-manage/search-table', { type: 'success', key: 'common.editSuccess' })
}

export default function EditShare() {
  const { t } = useTranslation()
  const { share } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined
  const defaultValue: ShareFormValues = {
    title: share.title,
    type: share.type,
    content: share.content,
    extraction_code: share.extraction_code ?? '',
    // As the lists show it (¥9.90), not as a bare number (9.9).
    price: share.price.toFixed(2),
    subscription_status: share.subscription_status,
  }
  return (
    <Stack maw={760}>
      <Title order={2}>{t('shares.edit')}</Title>
      <Group gap="lg">
        <Text size="sm">
          {t('shares.field.unicode')}: <b>{share.unicode}</b>
        </Text>
        <Group gap="xs">
          <Text size="sm">{t('shares.form.currentStatus')}:</Text>
          <ShareStatusBadge status={share.status} />
        </Group>
      </Group>
      {share.status === 'violation' ? (
        <>
          <Alert color="red" variant="light" role="alert">
            {t('shares.form.bannedNotice')}
          </Alert>
          <Group>
            <Button component={Link} to="/share-manage/search-table" variant="default">
              {t('pages.back')}
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Alert color={share.status === 'reported_invalid' ? 'orange' : 'blue'} variant="light">
            {share.status === 'reported_invalid' ? t('shares.form.takenDownNotice') : t('shares.form.reviewNotice')}
          </Alert>
          <Card withBorder padding="lg">
            <ShareForm lastResult={lastResult} defaultValue={defaultValue} submitLabel={t('shares.form.submitEdit')} />
          </Card>
        </>
      )}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
