import { createCookie, createCookieSessionStorage } from '@remix-run/node'
import { env } from './env.ts'

const MONTH = 30 * 24 * 60 * 60

/** The httpOnly session cookie holding the API token (DESIGN §1). Only ./auth.ts reads it. */
export const sessionStorage = createCookieSessionStorage<{ token: string }>({
  cookie: { name: 'ps_session', httpOnly: true, sameSite: 'lax', path: '/', secrets: [env.sessionSecret], maxAge: MONTH },
})

/** One-shot messages shown on the next page (STYLE: flash messages ride a separate signed cookie). */
export const toastCookie = createCookie('ps_toast', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [env.sessionSecret], maxAge: 60 })

/** Locale choice (DESIGN §3 Settings). Not secret, so not signed. */
export const localeCookie = createCookie('ps_lng', { sameSite: 'lax', path: '/', maxAge: 365 * 24 * 60 * 60 })

/** Secure cookies in production over https; COOKIE_SECURE forces either way. */
export function secureFor(request: Request): boolean {
  if (env.cookieSecure === 'true') return true
  if (env.cookieSecure === 'false') return false
  const proto = request.headers.get('x-forwarded-proto') ?? new URL(request.url).protocol.replace(':', '')
  return proto === 'https'
}
