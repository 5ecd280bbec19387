import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, useRouteError } from '@remix-run/react'
import { ExceptionPage } from '#app/components/feedback/error-boundary.tsx'
import { AppLayout } from '#app/components/layout/AppLayout.tsx'
import { optionalUser } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { layoutData } from '#app/.server/layout.ts'

type NotFoundData = { title: string; layout: Awaited<ReturnType<typeof layoutData>> | null }

/**
 * notFound: any unmatched path (SPEC §2), public. The 404 carries the page title in the visitor's
 * language; a logged-in user keeps the header and the menu around it, as on every console page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await optionalUser({ request, context })
  const layout = auth ? await layoutData(request, auth.user, auth.token) : null
  throw data<NotFoundData>({ title: await pageTitle(request, 'pages.notFoundTitle'), layout }, { status: 404 })
}

export const meta: MetaFunction = ({ error }) => {
  const title = isRouteErrorResponse(error) ? (error.data as NotFoundData | null)?.title : undefined
  return [{ title: title ?? '404 - PayShare' }]
}

export default function NotFound() {
  return <ExceptionPage status={404} />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const layout = isRouteErrorResponse(error) ? (error.data as NotFoundData | null)?.layout : null
  if (!layout) return <ExceptionPage status={404} />
  return (
    <AppLayout {...layout}>
      <ExceptionPage status={404} />
    </AppLayout>
  )
}
