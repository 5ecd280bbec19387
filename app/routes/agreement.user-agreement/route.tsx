import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AgreementDocument } from '#app/components/agreement/agreement-document.tsx'
import { PublicLayout } from '#app/components/layout/PublicLayout.tsx'
import { getToken } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return { title: await pageTitle(request, 'pages.agreement.userAgreement'), loggedIn: Boolean(await getToken(request)) }
}

export default function UserAgreement() {
  const { loggedIn } = useLoaderData<typeof loader>()
  return (
    <PublicLayout loggedIn={loggedIn}>
      <AgreementDocument doc="userAgreement" />
    </PublicLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
