import { redirect } from '@remix-run/node'
import type { z } from 'zod'
import { listParams } from '~/components/list.tsx'
import { ApiError } from './api.ts'
import { redirectToLogin } from './auth.ts'
import { setFlash } from './toast.ts'

/**
 * `listParams` with each filter checked against the API's query schema: a bad value typed into the URL
 * is dropped instead of turning the page into a 422.
 */
export function listQuery(request: Request, schema: z.ZodObject, filters: string[]) {
  const query = listParams(request, filters)
  for (const f of filters) {
    const field = schema.shape[f] as z.ZodType | undefined
    if (query[f] !== undefined && (!field || !field.safeParse(query[f]).success)) delete query[f]
  }
  return query
}

/** The request's URL without the dialog params: where a row action returns to. */
export function listUrl(request: Request, dialogKeys: readonly string[] = []) {
  const url = new URL(request.url)
  for (const k of dialogKeys) url.searchParams.delete(k)
  url.searchParams.delete('index')
  const search = url.searchParams.toString()
  return search ? `${url.pathname}?${search}` : url.pathname
}

/**
 * A row action's API failure (SPEC §8): a dead token goes to login, 500–504 to the "Confirm logout"
 * dialog — except the msgs in `shown`, which the page states itself — and anything else comes back
 * as the msg key for the page to show.
 */
export async function rowActionError(request: Request, e: unknown, shown: string[] = []): Promise<string> {
  if (!(e instanceof ApiError)) throw e
  const url = new URL(request.url)
  if (e.status === 401) return redirectToLogin(request, e)
  if (e.confirmsLogout && !shown.includes(e.msg)) {
    throw redirect(url.pathname + url.search, { headers: { 'set-cookie': await setFlash(request, { confirmLogout: true }) } })
  }
  return e.msg
}
