import type { LoaderFunctionArgs } from '@remix-run/node'
import { chatApi } from '#contract/messages.ts'
import { api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'

/** GET /events/unread — the navbar's counts as JSON, fetched by the badge after a live event. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = await getToken(request)
  if (!token) return Response.json(null, { status: 401 })
  try {
    return Response.json(await api(request, chatApi.unread, { token, query: {} }), { headers: { 'cache-control': 'no-store' } })
  } catch {
    return Response.json(null, { status: 503 })
  }
}
