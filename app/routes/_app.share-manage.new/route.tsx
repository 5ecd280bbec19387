import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Alert, Card, Stack, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { shareCreateSchema, sharesApi } from '#contract/shares.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { EMPTY_SHARE, ShareForm } from '#app/components/shares/share-form.tsx'
import { PublishRequirements } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { fieldError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import type { MenuHandle } from '#app/components/layout/AppLayout.tsx'

/** Issue 11: the menu highlights "My shares" on this nested page (and the breadcrumbs end there). */
export const handle: MenuHandle = { menu: '/share-manage/search-table' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser({ request, context })
  return { title: await pageTitle(request, 'shares.new'), phone: Boolean(user.phone), terms: Boolean(user.terms_agreed_at) }
}

/** POST /api/shares/new; the API refuses (403) until a phone is bound and the terms agreed, and says which. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const submission = parseWithZod(await readForm(request), { schema: shareCreateSchema })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  const v = submission.value
  try {
    await api(request, sharesApi.new, {
      token,
      body: { ...v, extraction_code: v.type === 'netdisk' && v.extraction_code ? v.extraction_code : undefined },
    })
  } catch (e) {
    return fieldError(request, submission, e)
  }
  return redirectWithToast(request, '/share-manage/search-table', { type: 'success', key: 'shares.created' })
}

export default function NewShare() {
  const { t } = useTranslation()
  const { phone, terms } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined
  return (
    <Stack maw={760}>
      <Title order={2}>{t('shares.new')}</Title>
      <PublishRequirements phone={phone} terms={terms} />
      <Alert color="blue" variant="light">
        {t('shares.form.newNotice')}
      </Alert>
      <Card withBorder padding="lg">
        <ShareForm lastResult={lastResult} defaultValue={EMPTY_SHARE} submitLabel={t('shares.form.submitNew')} />
      </Card>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
