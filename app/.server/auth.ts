import { type AppLoadContext, redirect } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { authApi, loginSchema } from '#contract/auth.ts'
import { redirectTarget } from '#contract/redirects.ts'
import { type User, usersApi } from '#contract/users.ts'
import { ApiError, api } from './api.ts'
import { badRequest, serviceUnavailable } from './request.ts'
import { secureFor, sessionStorage } from './session.ts'
import { setFlash } from './toast.ts'

export const WORKPLACE = '/dashboard/workplace'

/** What every loader and action gets from Remix; `context` is one object per HTTP request. */
export type RequestArgs = { request: Request; context: AppLoadContext }

/** remix-auth: the form strategy exchanges the login form for an API token. */
export const authenticator = new Authenticator<string>()
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const body = loginSchema.parse({ username: form.get('username'), password: form.get('password') })
    const { token } = await api(request, authApi.login, { body })
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

/**
 * Where the browser may be sent after login, a locale switch, /redirect/*, the settings drawer or a
 * bind form: only a path of this site (`redirectTarget`, decision 105), else `fallback`. A value with
 * control characters is a forged request (and no valid header value): 400.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = WORKPLACE): string {
  const target = redirectTarget(to)
  if (target.ok) return target.to
  if (target.reason === 'forged') throw badRequest()
  return fallback
}

/**
 * The login page, coming back to this request's page afterwards (SPEC §2). The one place it is built.
 * `cause`: the API failure that ended the session — a banned account is told so on the login page, not
 * just dropped there (issue 13).
 */
export function loginRedirect(request: Request, headers?: HeadersInit, cause?: unknown) {
  const url = new URL(request.url)
  const params = new URLSearchParams({ redirect: url.pathname + url.search })
  if (cause instanceof ApiError && cause.msg === 'auth.banned') params.set('reason', 'banned')
  return redirect(`/login?${params}`, { headers })
}

/**
 * One user-info call per HTTP request: the loaders of a navigation (the layout, the section, the page)
 * share the request's load context, so they share the call. An action keeps its own (it may change the
 * user, and the loaders that run after it in the same request must see the change).
 */
const userInfoCalls = new WeakMap<object, Map<string, Promise<User>>>()
function userInfo({ request, context }: RequestArgs, token: string): Promise<User> {
  let calls = userInfoCalls.get(context)
  if (!calls) userInfoCalls.set(context, (calls = new Map()))
  const key = `${request.method} ${token}`
  let call = calls.get(key)
  if (!call) {
    call = api(request, usersApi.userInfo, { token })
    calls.set(key, call)
  }
  return call
}

/**
 * SPEC §2 guard: without a token every private route goes to login with a redirect; with one, the user
 * is loaded. A refused token logs out and goes to login (the user-info call never opens the dialog); an
 * API that does not answer keeps the session and shows "temporarily unavailable" (503).
 */
export async function requireUser(args: RequestArgs): Promise<{ user: User; token: string }> {
  const { request } = args
  const token = await getToken(request)
  if (!token) throw loginRedirect(request)
  try {
    return { user: await userInfo(args, token), token }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    if (e.unreachable || e.status >= 500) throw serviceUnavailable()
    const headers = new Headers({ 'set-cookie': await destroySession(request) })
    const known = e.status === 401 || e.msg === 'auth.banned'
    if (!known) headers.append('set-cookie', await setFlash(request, { toast: { type: 'error', key: 'errors.userInfoFailed' } }))
    throw loginRedirect(request, headers, e)
  }
}

/**
 * The user on a public page: null for visitors — and when the session cannot be loaded, since a
 * public page shows its visitor view rather than an error.
 */
export async function optionalUser(args: RequestArgs): Promise<{ user: User; token: string } | null> {
  const token = await getToken(args.request)
  if (!token) return null
  try {
    return { user: await userInfo(args, token), token }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    return null
  }
}

/** SPEC §6: admin alone opens /system, the instrument cluster and the 403 page; others go to their first page. */
export async function requireAdmin(args: RequestArgs) {
  const auth = await requireUser(args)
  if (auth.user.role !== 'admin') {
    throw redirect(WORKPLACE, { headers: { 'set-cookie': await setFlash(args.request, { toast: { type: 'error', key: 'pages.forbidden' } }) } })
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
