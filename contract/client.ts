import type { Envelope } from './envelope.ts'
import type { BodyIn, DataOf, Endpoint, QueryIn } from './http.ts'

/**
 * The one client of the API's endpoints (decision 130): the console's server side, the e2e helpers and
 * the bench call an endpoint of `contract/` by its definition, never by a string path, so its method,
 * path, query, body and answer come from one place. The transport is the caller's: the console sends
 * over kept-alive node:http sockets, the tests and the bench with `fetch`.
 */

type Part<K extends string, T> = T extends undefined ? { [k in K]?: undefined } : object extends T ? { [k in K]?: T } : { [k in K]: T }

/** What one call of an endpoint sends: its query or its body (optional where every field of it is). */
export type CallInput<E extends Endpoint> = Part<'query', QueryIn<E>> & Part<'body', BodyIn<E>>

/** The call's input, left out altogether where nothing in it is required. */
export type InputArgs<I> = object extends I ? [input?: I] : [input: I]

/** An answer of one endpoint: its `data` on success (200/201), something else with another code. */
export type Answer<E extends Endpoint> = Envelope<DataOf<E>> | Envelope<unknown>

/** The method, URL and JSON body of one call; empty query values are left out, as a form would. */
export function requestOf(base: string, e: Endpoint, input: { query?: unknown; body?: unknown } = {}): { method: Endpoint['method']; url: URL; body?: string } {
  const url = new URL(base + e.path)
  for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, unknown>)) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v))
  // A POST always carries a JSON object: the API's body schemas read `{}` as "nothing".
  return e.method === 'POST' ? { method: e.method, url, body: JSON.stringify(input.body ?? {}) } : { method: e.method, url }
}

/** The URL of a GET endpoint with its query, for a load generator that sends one request many times. */
export function urlOf<E extends Endpoint & { method: 'GET' }>(base: string, e: E, ...[input]: InputArgs<CallInput<E>>): string {
  return requestOf(base, e, input).url.href
}

export const succeeded = (answer: Envelope<unknown>): boolean => answer.code === 200 || answer.code === 201

type FetchInput<E extends Endpoint> = CallInput<E> & { token?: string | null }

/** A `fetch` client of the API for the e2e helpers and the bench: `call` answers the envelope, `ok` its data or throws. */
export function fetchClient(base: string, headersOf: () => Record<string, string> = () => ({})) {
  async function call<E extends Endpoint>(e: E, ...[input]: InputArgs<FetchInput<E>>): Promise<Answer<E>> {
    const { token, ...rest } = (input ?? {}) as { token?: string | null; query?: unknown; body?: unknown }
    const req = requestOf(base, e, rest)
    const headers: Record<string, string> = { accept: 'application/json', ...headersOf() }
    if (token) headers.authorization = `Bearer ${token}`
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(req.url, { method: req.method, headers, body: req.body })
    return (await res.json()) as Answer<E>
  }
  async function ok<E extends Endpoint>(e: E, ...input: InputArgs<FetchInput<E>>): Promise<DataOf<E>> {
    const answer = await call(e, ...input)
    if (!succeeded(answer)) throw new Error(`${e.method} ${e.path} → ${answer.code} ${answer.msg} ${JSON.stringify(answer.data)}`)
    return answer.data as DataOf<E>
  }
  return { call, ok }
}
