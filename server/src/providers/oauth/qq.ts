import { CodeRejected, type OAuthIdentity, type OAuthLoginProvider, ProviderUnavailable, getText } from './types.ts'

export type QQConfig = {
  appId: string
  appKey: string
  /** https://graph.qq.com; tests point it at a local fake. */
  baseUrl: string
  /** Ask /oauth2.0/me for the unionid (needs that permission on the QQ Connect app, else error 100048). */
  unionid?: boolean
}

/**
 * QQ token errors that mean "this code will not work" (the user must start again): 100019 code to
 * access token error, 100020 code reused, 100013 / 100016 invalid or expired token… Any other error
 * number is the app's configuration or QQ itself.
 */
const CODE_ERRORS = new Set([100019, 100020, 100013, 100014, 100015, 100016])

/**
 * QQ answers in three shapes (research/INTEGRATIONS.md §3.1): JSON (with fmt=json), form-encoded text
 * (the token's default) and JSONP `callback( {...} );` (/me, and errors). One reader for all.
 */
export function parseQQAnswer(text: string): Record<string, unknown> {
  const body = text.trim()
  const jsonp = /^callback\(\s*(\{.*\})\s*\)\s*;?$/s.exec(body)
  const json = jsonp ? jsonp[1]! : body.startsWith('{') ? body : null
  if (json !== null) {
    try {
      const parsed: unknown = JSON.parse(json)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
    } catch {
      // falls through to the unreadable answer below
    }
    throw new ProviderUnavailable(`QQ: unreadable answer ${body.slice(0, 80)}`)
  }
  const form = new URLSearchParams(body)
  if (!form.has('access_token')) throw new ProviderUnavailable(`QQ: unreadable answer ${body.slice(0, 80)}`)
  return Object.fromEntries(form)
}

function failIfError(where: string, a: Record<string, unknown>) {
  if (a.error === undefined) return
  const code = Number(a.error)
  const message = `QQ ${where}: ${code} ${String(a.error_description ?? '')}`
  throw CODE_ERRORS.has(code) ? new CodeRejected(message) : new ProviderUnavailable(message)
}

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** QQ Connect (QQ 互联) website login: authorize → /oauth2.0/token → /oauth2.0/me → /user/get_user_info. */
export class QQLoginProvider implements OAuthLoginProvider {
  readonly provider = 'qq' as const
  readonly kind = 'qq' as const
  constructor(private readonly config: QQConfig) {}

  authorizationUrl(i: { state: string; redirectUri: string }): string {
    const url = new URL('/oauth2.0/authorize', this.config.baseUrl)
    url.search = new URLSearchParams({ response_type: 'code', client_id: this.config.appId, redirect_uri: i.redirectUri, state: i.state, scope: 'get_user_info' }).toString()
    return url.toString()
  }

  async identify(i: { code: string; redirectUri: string }): Promise<OAuthIdentity> {
    const token = new URL('/oauth2.0/token', this.config.baseUrl)
    token.search = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: this.config.appId,
      client_secret: this.config.appKey,
      code: i.code,
      redirect_uri: i.redirectUri,
      fmt: 'json',
    }).toString()
    const t = parseQQAnswer(await getText(token))
    failIfError('token', t)
    const accessToken = text(t.access_token)
    if (!accessToken) throw new ProviderUnavailable('QQ token: no access_token')

    const me = new URL('/oauth2.0/me', this.config.baseUrl)
    me.search = new URLSearchParams({ access_token: accessToken, ...(this.config.unionid ? { unionid: '1' } : {}) }).toString()
    const m = parseQQAnswer(await getText(me))
    failIfError('me', m)
    const openid = text(m.openid)
    if (!openid) throw new ProviderUnavailable('QQ me: no openid')
    // An answer for another app's token is not ours to trust.
    if (m.client_id !== undefined && text(m.client_id) !== this.config.appId) throw new CodeRejected('QQ me: token of another app')

    const info = new URL('/user/get_user_info', this.config.baseUrl)
    info.search = new URLSearchParams({ access_token: accessToken, oauth_consumer_key: this.config.appId, openid }).toString()
    // The nickname is a courtesy: a profile QQ will not give (ret ≠ 0) does not stop the login.
    let nickname = ''
    try {
      const p = parseQQAnswer(await getText(info))
      if (Number(p.ret) === 0) nickname = text(p.nickname)
    } catch (e) {
      if (!(e instanceof ProviderUnavailable)) throw e
    }
    return { openid, unionid: text(m.unionid) || null, nickname: nickname.slice(0, 100) }
  }
}
