import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { loginSchema } from '#contract/auth.ts'
import { type OAuthProvider, createAccountFormSchema, oauthApi } from '#contract/oauth.ts'
import { ApiError, api } from './api.ts'
import { WORKPLACE, commitToken, getToken, requireUser, safeRedirect } from './auth.ts'
import { fieldError, pageError, rowError } from './failures.ts'
import { pageTitle } from './i18n.ts'
import { clearOAuthCookie, finishOAuth, isCallback, pendingIdentity, startOAuth } from './oauth.ts'
import { readForm } from './request.ts'
import type { ChoiceResult } from '#app/components/oauth/login-page.tsx'
import { redirectWithToast } from './toast.ts'

/** SPEC §2: LoginQQ's title is the bind-QQ menu label (and LoginWeChat's the bind-WeChat one). */
const titleKey = (provider: OAuthProvider) => (provider === 'qq' ? 'menu.bindQQ' : 'menu.bindWeChat')
const loginPath = (provider: OAuthProvider) => `/login/${provider}`

/** The providers this server offers (an API that cannot say offers none: the password login still works). */
export async function offeredProviders(request: Request) {
  try {
    return await api(request, oauthApi.providers, {})
  } catch (e) {
    if (e instanceof ApiError) return []
    throw e
  }
}

/**
 * LoginQQ / LoginWeChat (SPEC §2, reachable without a token): the provider's callback, the
 * bind-or-create choice for an identity no account has, or the page that starts the round trip.
 */
export async function oauthLoginLoader({ request }: LoaderFunctionArgs, provider: OAuthProvider) {
  const here = loginPath(provider)
  if (isCallback(request)) {
    const outcome = await finishOAuth(request, provider, 'login')
    if (outcome.kind === 'unknown') return redirect(here, { headers: { 'set-cookie': outcome.setCookie } })
    const clear = await clearOAuthCookie(request)
    if (outcome.kind === 'login') {
      const headers = new Headers([['set-cookie', clear]])
      headers.append('set-cookie', await commitToken(request, outcome.token))
      return redirectWithToast(request, WORKPLACE, { type: 'success', key: 'auth.welcome' }, { headers })
    }
    return redirectWithToast(request, here, { type: 'error', key: outcome.kind === 'failed' ? outcome.msg : 'oauth.stateInvalid' }, { headers: { 'set-cookie': clear } })
  }
  // Logged in already: QQ / WeChat are bound from the settings, not logged in with again.
  if (await getToken(request)) throw redirect(`/bind/${provider}`)
  const pending = await pendingIdentity(request, provider)
  const offered = (await offeredProviders(request)).find((p) => p.provider === provider)
  return { title: await pageTitle(request, titleKey(provider)), provider, nickname: pending ? pending.nickname : null, offered: offered ?? null }
}

export async function oauthLoginAction({ request }: ActionFunctionArgs, provider: OAuthProvider) {
  const here = loginPath(provider)
  const form = await readForm(request, ['start', 'cancel', 'bindExisting', 'create'])
  const intent = String(form.get('intent') ?? '')
  if (intent === 'start') {
    try {
      return await startOAuth(request, provider, 'login')
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      return redirectWithToast(request, here, { type: 'error', key: e.msg })
    }
  }
  if (intent === 'cancel') return redirect('/login', { headers: { 'set-cookie': await clearOAuthCookie(request) } })

  const pending = await pendingIdentity(request, provider)
  if (intent !== 'bindExisting' && intent !== 'create') return redirect(here)
  const submission = parseWithZod(form, { schema: intent === 'create' ? createAccountFormSchema : loginSchema })
  if (submission.status !== 'success') return data<ChoiceResult>({ intent, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  if (!pending) return redirectWithToast(request, here, { type: 'error', key: 'oauth.ticketInvalid' })
  try {
    const { token } =
      intent === 'create'
        ? await api(request, oauthApi.createAccount, { body: { ticket: pending.ticket, user_name: (submission.value as { user_name: string }).user_name } })
        : await api(request, oauthApi.bindExisting, { body: { ticket: pending.ticket, ...(submission.value as { username: string; password: string }) } })
    const headers = new Headers([['set-cookie', await clearOAuthCookie(request)]])
    headers.append('set-cookie', await commitToken(request, token))
    return redirectWithToast(request, WORKPLACE, { type: 'success', key: 'auth.welcome' }, { headers })
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    if (e.msg === 'oauth.ticketInvalid') return redirectWithToast(request, here, { type: 'error', key: e.msg }, { headers: { 'set-cookie': await clearOAuthCookie(request) } })
    // A wrong password here is the form's answer, not a dead session (fieldError would log out on 401).
    if (e.status === 401 || e.status === 403 || e.status === 429) {
      return data<ChoiceResult>({ intent, result: submission.reply({ formErrors: [e.msg], hideFields: ['password'] }) }, { status: 400 })
    }
    const res = await fieldError(request, submission, e)
    return data<ChoiceResult>({ intent, result: res.data }, res.init ?? undefined)
  }
}

/** /bind/qq (SPEC §2, hidden) and /bind/wechat: the bind callback, or the binding's state with bind / unbind. */
export async function bindLoader(args: LoaderFunctionArgs, provider: OAuthProvider) {
  const { request } = args
  const { token } = await requireUser(args)
  if (isCallback(request)) {
    const outcome = await finishOAuth(request, provider, 'bind', token)
    const headers = { 'set-cookie': await clearOAuthCookie(request) }
    if (outcome.kind === 'bound') return redirectWithToast(request, '/user/setting', { type: 'success', key: 'oauth.bound' }, { headers })
    return redirectWithToast(request, `/bind/${provider}`, { type: 'error', key: outcome.kind === 'failed' ? outcome.msg : 'oauth.stateInvalid' }, { headers })
  }
  const bindings = await api(request, oauthApi.bindings, { token }).catch((e: unknown) => pageError(request, e))
  return { title: await pageTitle(request, titleKey(provider)), provider, bindings }
}

/** Bind (off to the provider) or unbind; back to the page the form came from. */
export async function bindAction(args: ActionFunctionArgs, provider: OAuthProvider) {
  const { request } = args
  const { token } = await requireUser(args)
  const form = await readForm(request, ['bind', 'unbind'])
  const back = safeRedirect(form.get('from'), `/bind/${provider}`)
  try {
    if (form.get('intent') === 'unbind') {
      await api(request, oauthApi.unbind, { token, body: { provider } })
      return redirectWithToast(request, back, { type: 'success', key: 'oauth.unbound' })
    }
    return await startOAuth(request, provider, 'bind', token)
  } catch (e) {
    return redirectWithToast(request, back, { type: 'error', key: await rowError(request, e, ['oauth.providerFailed']) })
  }
}
