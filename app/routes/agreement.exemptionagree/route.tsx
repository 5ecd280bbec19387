import { Alert, Button } from '@mantine/core'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useIsPending } from '#app/components/forms/fields.tsx'
import { AgreementDocument } from '#app/components/agreement/agreement-document.tsx'
import { PublicLayout } from '#app/components/layout/PublicLayout.tsx'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { optionalUser, requireUser } from '#app/.server/auth.ts'
import { rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'

/** The sharing disclaimer. Public; a logged-in user who has not agreed yet can agree here (agreeToTerms). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await optionalUser({ request, context })
  return { title: await pageTitle(request, 'pages.agreement.exemption'), loggedIn: Boolean(auth), agreedAt: auth?.user.terms_agreed_at ?? null }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  await readForm(request)
  try {
    await api(request, usersApi.agreeToTerms, { token })
  } catch (e) {
    // A refusal is the page's message (a toast), not a 500.
    return redirectWithToast(request, '/agreement/exemptionagree', { type: 'error', key: await rowError(request, e) })
  }
  return redirectWithToast(request, '/dashboard/workplace', { type: 'success', key: 'settings.termsAgreed' })
}

export default function ExemptionAgree() {
  const { t } = useTranslation()
  const { loggedIn, agreedAt } = useLoaderData<typeof loader>()
  const pending = useIsPending()
  return (
    <PublicLayout loggedIn={loggedIn}>
      <AgreementDocument doc="exemption">
        {loggedIn && agreedAt ? (
          <Alert color="green" variant="light">
            {t('settings.termsAgreedAt', { at: formatDateTime(agreedAt) })}
          </Alert>
        ) : null}
        {loggedIn && !agreedAt ? (
          <Form method="post">
            <Button type="submit" loading={pending}>
              {t('settings.agreeTerms')}
            </Button>
          </Form>
        ) : null}
      </AgreementDocument>
    </PublicLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
