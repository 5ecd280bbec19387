import { Alert, Button } from '@mantine/core'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useIsPending } from '~/components/forms/fields.tsx'
import { AgreementDocument } from '~/components/agreement/agreement-document.tsx'
import { PublicLayout } from '~/components/layout/PublicLayout.tsx'
import { ApiError, callApi } from '~/.server/api.ts'
import { getToken, requireUser } from '~/.server/auth.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { redirectWithToast } from '~/.server/toast.ts'
import type { User } from '#contract/users.ts'
import { formatDateTime } from '~/utils/format.ts'

/** The sharing disclaimer. Public; a logged-in user who has not agreed yet can agree here (agreeToTerms). */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = await getToken(request)
  let agreedAt: string | null = null
  let loggedIn = false
  if (token) {
    try {
      const user = await callApi<User>(request, '/api/users/userInfo', { token })
      loggedIn = true
      agreedAt = user.terms_agreed_at
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
    }
  }
  return { title: await pageTitle(request, 'pages.agreement.exemption'), loggedIn, agreedAt }
}

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireUser(request)
  await callApi(request, '/api/users/agreeToTerms', { method: 'POST', token })
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
