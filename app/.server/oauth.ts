import { createCookie, redirect } from '@remix-run/node'
import { type OAuthProvider, type OAuthPurpose, oauthApi } from '#contract/oauth.ts'
import { ApiError, api } from './api.ts'
import { env } from './env.ts'
import { secureFor } from './session.ts'

/**
 * The browser's side of a QQ / WeChat round trip (decision 093): a signed, httpOnly cookie holding the
 * `state` this browser was given and the `binding` secret it is derived from (SameSite=Lax, so it comes
 * back with the provider's top-level GET redirect; the API refuses a callback without the binding), then — for an identity no account has — the one-time ticket and the nickname to show.
 */
type OAuthCookie =
  | { step: 'state'; provider: OAuthProvider; purpose: OAuthPurpose; state: string; binding: string }
  | { step: 'ticket'; provider: OAuthProvider; ticket: string; nickname: string }

const oauthCookie = createCookie('ps_oauth', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [env.sessionSecret], maxAge: 15 * 60 })

async function readCookie(request: Request): Promise<OAuthCookie | null> {
  const value = (await oauthCookie.parse(request.headers.get('cookie'))) as OAuthCookie | null
  return value && typeof value === 'object' ? value : null
}

const writeCookie = (request: Request, value: OAuthCookie) => oauthCookie.serialize(value, { secure: secureFor(request) })
export const clearOAuthCookie = (request: Request) => oauthCookie.serialize('', { maxAge: 0, secure: secureFor(request) })

/** Starts a round trip: the API's consent URL, this browser's state in the cookie, and off to the provider. */
export async function startOAuth(request: Request, provider: OAuthProvider, purpose: OAuthPurpose, token?: string) {
  const { url, state, binding } = await api(request, oauthApi.authorize, { token, body: { provider, purpose } })
  return redirect(url, { headers: { 'set-cookie': await writeCookie(request, { step: 'state', provider, purpose, state, binding }) } })
}

/** Whether this request is the provider sending the browser back (code and state, or a refusal). */
export function isCallback(request: Request): boolean {
  const q = new URL(request.url).searchParams
  return q.has('code') || q.has('state') || q.has('error')
}

export type CallbackOutcome =
  | { kind: 'login'; token: string }
  | { kind: 'bound' }
  | { kind: 'unknown'; setCookie: string }
  | { kind: 'failed'; msg: string }

/**
 * The callback: the state in the URL must be the one this browser's cookie holds, for this provider and
 * purpose (a missing, foreign or reused state is refused before the API is asked); the API then spends
 * it (single use) and exchanges the code.
 */
export async function finishOAuth(request: Request, provider: OAuthProvider, purpose: OAuthPurpose, token?: string): Promise<CallbackOutcome> {
  const q = new URL(request.url).searchParams
  const kept = await readCookie(request)
  const state = q.get('state')
  if (!kept || kept.step !== 'state' || kept.provider !== provider || kept.purpose !== purpose || !state || state !== kept.state || typeof kept.binding !== 'string') {
    return { kind: 'failed', msg: 'oauth.stateInvalid' }
  }
  // The user refused on the provider's page (or it answered an error): nothing to exchange.
  if (q.has('error') || !q.get('code')) return { kind: 'failed', msg: 'oauth.cancelled' }
  try {
    const answer = await api(request, oauthApi.callback, { token, body: { provider, code: q.get('code')!, state, binding: kept.binding } })
    if (answer.kind === 'login') return { kind: 'login', token: answer.token }
    if (answer.kind === 'bound') return { kind: 'bound' }
    return { kind: 'unknown', setCookie: await writeCookie(request, { step: 'ticket', provider, ticket: answer.ticket, nickname: answer.nickname }) }
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status === 401 && purpose === 'bind')) throw e
    return { kind: 'failed', msg: e.msg }
  }
}

/** The unknown identity waiting in this browser for bind-or-create, if it is this provider's. */
export async function pendingIdentity(request: Request, provider: OAuthProvider): Promise<{ ticket: string; nickname: string } | null> {
  const kept = await readCookie(request)
  return kept?.step === 'ticket' && kept.provider === provider ? { ticket: kept.ticket, nickname: kept.nickname } : null
}

