import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { requireUser, safeRedirect } from '#app/.server/auth.ts'

/** /redirect/:path — hidden helper that reloads a page by sending the browser to /:path with the query. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  const url = new URL(request.url)
  return redirect(safeRedirect(`/${params['*'] ?? ''}${url.search}`))
}
