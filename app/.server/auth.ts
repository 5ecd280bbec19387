import { redirect } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { loginSchema } from '#contract/auth.ts'
import type { User } from '#contract/users.ts'
import { ApiError, callApi } from './api.ts'
import { secureFor, sessionStorage } from './session.ts'
import { setFlash } from './toast.ts'

export const WORKPLACE = '/dashboard/workplace'

/** remix-auth: the form strategy exchanges the login form for an API token. */
export const authenticator = new Authenticator<string>()
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const { username, password } = loginSchema.parse({ username: form.get('username'), password: form.get('password') })
    const { token } = await callApi<{ token: string }>(request, '/api/auth/login', { body: { username, password } })
    return token
  }),
  'form',
)

const getSession = (request: Request) => sessionStorage.getSession(request.headers.get('cookie'))

/** The stored API token, if any. The only reader of the session (STYLE: guards). */
export async function getToken(request: Request): Promise<string | null> {
  return (await getSession(request)).get('token') ?? null
}

export async function commitToken(request: Request, token: string): Promise<string> {
  const session = await getSession(request)
  session.set('token', token)
  return sessionStorage.commitSession(session, { secure: secureFor(request) })
}

export async function destroySession(request: Request): Promise<string> {
  return sessionStorage.destroySession(await getSession(request), { secure: secureFor(request) })
}

/** Only same-site paths are followed after login (no open redirect). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = WORKPLACE): string {
  if (!to || typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}

function loginUrl(request: Request, e?: unknown): string {
  const url = new URL(request.url)
  const params = new URLSearchParams({ redirect: url.pathname + url.search })
  // A banned account is told so on the login page, not just dropped there (issue 13).
  if (e instanceof ApiError && e.msg === 'auth.banned') params.set('reason', 'banned')
  return `/login?${params}`
}

/** A dead token (401) ends the session: back to login, with the reason when the account was banned. */
export async function redirectToLogin(request: Request, e?: unknown): Promise<never> {
  throw redirect(loginUrl(request, e), { headers: { 'set-cookie': await destroySession(request) } })
}

/**
 * SPEC §2 guard: without a token every private route goes to login with a redirect; with one, the user
 * is loaded, and a failed load logs out and goes to login (the user-info call never opens the dialog).
 */
export async function requireUser(request: Request): Promise<{ user: User; token: string }> {
  const token = await getToken(request)
  if (!token) throw redirect(loginUrl(request))
  try {
    const user = await callApi<User>(request, '/api/users/userInfo', { token })
    return { user, token }
  } catch (e) {
    const headers = new Headers({ 'set-cookie': await destroySession(request) })
    const known = e instanceof ApiError && (e.status === 401 || e.msg === 'auth.banned')
    if (!known) headers.append('set-cookie', await setFlash(request, { toast: { type: 'error', key: 'errors.userInfoFailed' } }))
    throw redirect(loginUrl(request, e), { headers })
  }
}

/** SPEC §6: admin alone opens /system, the instrument cluster and the 403 page; others go to their first page. */
export async function requireAdmin(request: Request) {
  const auth = await requireUser(request)
  if (auth.user.role !== 'admin') {
    throw redirect(WORKPLACE, { headers: { 'set-cookie': await setFlash(request, { toast: { type: 'error', key: 'pages.forbidden' } }) } })
  }
  return auth
}

/** SPEC §2: with a stored token, going to login redirects to the workplace carrying redirect and the query. */
export async function requireAnonymous(request: Request) {
  if (await getToken(request)) {
    const url = new URL(request.url)
    throw redirect(`${WORKPLACE}${url.search}`)
  }
}
