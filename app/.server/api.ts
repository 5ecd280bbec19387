import type { Envelope, FieldErrors } from '#contract/envelope.ts'
import { type CallInput, requestOf, succeeded } from '#contract/client.ts'
import type { DataOf, Endpoint } from '#contract/http.ts'
import http from 'node:http'
import https from 'node:https'
import { usersApi } from '#contract/users.ts'
import { env } from './env.ts'

/**
 * Every page render calls the API, so the transport matters: node:http with kept-alive sockets costs a
 * fraction of `fetch` per call (measured: fetch was 8% of the share page's CPU profile).
 */
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) }
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const secure = url.protocol === 'https:'
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method, headers, agent: secure ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body !== undefined) req.end(body)
    else req.end()
  })
}

/** 502 answers about an outside provider, not about the session. */
const PROVIDER_FAILURES = new Set(['auth.codeSendFailed', 'oauth.providerFailed', 'orders.gatewayError', 'orders.refundFailed', 'withdrawals.payoutFailed', 'withdrawals.payoutUnknown'])

/** A non-200/201 answer of the API (SPEC §8). `msg` is a key of the locale catalogs. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly data: unknown,
    readonly path: string,
    /** No answer from the API at all (down, restarting, or a proxy in front saying so): not about the session. */
    readonly unreachable = false,
  ) {
    super(`${status} ${msg} (${path})`)
  }
  get fieldErrors(): FieldErrors | undefined {
    const d = this.data as { fieldErrors?: FieldErrors } | null
    return d?.fieldErrors
  }
  /**
   * SPEC §8: 500–504 open the "Confirm logout" dialog, except for the user-info call — and except when
   * the API says a payment or message provider failed (502 with its own message): the session is fine
   * then, and the page shows that message instead.
   */
  get confirmsLogout(): boolean {
    if (this.unreachable) return false
    return this.status >= 500 && this.status <= 504 && this.path !== usersApi.userInfo.path && !PROVIDER_FAILURES.has(this.msg)
  }
}

/** What a call of one endpoint sends: the session's token, forwarded headers and the endpoint's own query or body. */
export type EndpointInput<E extends Endpoint> = { token?: string | null; headers?: Record<string, string> } & CallInput<E>

/**
 * The typed client (decision 130): calls one endpoint of `contract/` with its method and path, and
 * answers its response type. The API validated the answer against the same schema before sending it.
 * The bearer token from the session, the client's address and request id are forwarded, the
 * `{code, msg, data}` envelope unwrapped; anything else throws ApiError.
 */
export async function api<E extends Endpoint>(request: Request, e: E, input: EndpointInput<E>): Promise<DataOf<E>> {
  const path = e.path
  const { url, method, body } = requestOf(env.apiUrl, e, input)
  const headers: Record<string, string> = { accept: 'application/json', ...input.headers }
  if (input.token) headers.authorization = `Bearer ${input.token}`
  const forwarded = request.headers.get('x-forwarded-for')
  if (forwarded) headers['x-forwarded-for'] = forwarded
  const ua = request.headers.get('user-agent')
  if (ua) headers['user-agent'] = ua
  const requestId = request.headers.get('x-request-id')
  if (requestId) headers['x-request-id'] = requestId
  if (body !== undefined) headers['content-type'] = 'application/json'
  let answer: { status: number; text: string }
  try {
    answer = await send(url, method, headers, body)
  } catch {
    // SPEC §8: a transport failure → 'Request Error'.
    throw new ApiError(503, 'errors.requestError', null, path, true)
  }
  let envelope: Envelope<DataOf<E>>
  try {
    envelope = JSON.parse(answer.text) as Envelope<DataOf<E>>
  } catch {
    // Not our envelope: a proxy in front of a stopped API answers 502–504 with a page of its own.
    const gateway = answer.status >= 502 && answer.status <= 504
    throw new ApiError(answer.status >= 400 ? answer.status : 502, gateway ? 'errors.requestError' : 'errors.error', null, path, gateway)
  }
  if (!succeeded(envelope)) {
    throw new ApiError(envelope.code || answer.status, envelope.msg || 'errors.error', envelope.data, path)
  }
  return envelope.data
}
