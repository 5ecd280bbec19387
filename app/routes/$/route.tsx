import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse } from '@remix-run/react'
import { ExceptionPage } from '#app/components/feedback/error-boundary.tsx'
import { pageTitle } from '#app/.server/i18n.ts'

/** notFound: any unmatched path (SPEC §2), public. The 404 carries the page title in the visitor's language. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw data({ title: await pageTitle(request, 'pages.notFoundTitle') }, { status: 404 })
}

export const meta: MetaFunction = ({ error }) => {
  const title = isRouteErrorResponse(error) ? (error.data as { title?: string } | null)?.title : undefined
  return [{ title: title ?? '404 - PayShare' }]
}

export default function NotFound() {
  return <ExceptionPage status={404} />
}

export function ErrorBoundary() {
  return <ExceptionPage status={404} />
}
