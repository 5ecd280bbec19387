import type { z } from 'zod'
import { listParams } from '#app/components/lists/pager.tsx'

/**
 * `listParams` checked against the API's query schema: a bad filter typed into the URL is dropped
 * instead of turning the page into a 422, and the rest is the endpoint's own query type.
 */
export function listQuery<S extends z.ZodObject>(request: Request, schema: S, filters: readonly string[]): z.output<S> {
  const query = listParams(request, filters)
  for (const f of filters) {
    const field = schema.shape[f] as z.ZodType | undefined
    if (query[f] !== undefined && (!field || !field.safeParse(query[f]).success)) delete query[f]
  }
  return schema.parse(query)
}

/** The request's URL without the dialog params: where a row action returns to. */
export function listUrl(request: Request, dialogKeys: readonly string[] = []) {
  const url = new URL(request.url)
  for (const k of dialogKeys) url.searchParams.delete(k)
  url.searchParams.delete('index')
  const search = url.searchParams.toString()
  return search ? `${url.pathname}?${search}` : url.pathname
}
