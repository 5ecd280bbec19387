import { CodeRejected, type OAuthIdentity, type OAuthLoginProvider, ProviderUnavailable, getText } from './types.ts'

export type WechatLoginConfig = {
  appId: string
  appSecret: string
  /** https://open.weixin.qq.com (the QR consent page); tests point it at a local fake. */
  openBaseUrl: string
  /** https://api.weixin.qq.com */
  apiBaseUrl: string
}

/**
 * WeChat errcodes that mean "this code will not work": 40029 invalid code (expired, reused, another
 * app's), 40163 code been used, 41008 missing code. Others (40013 invalid appid, 40125 invalid secret,
 * -1 busy…) are the app's configuration or WeChat itself.
 */
const CODE_ERRORS = new Set([40029, 40163, 41008])

function readJson(where: string, body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // below
  }
  throw new ProviderUnavailable(`WeChat ${where}: unreadable answer ${body.slice(0, 80)}`)
}

const text = (v: unknown) => (typeof v === 'string' ? v : '')

/**
 * WeChat Open Platform website login (research/INTEGRATIONS.md §3.2): qrconnect → sns/oauth2/access_token
 * → sns/userinfo. Errors come as HTTP 200 with an `errcode`.
 */
export class WechatLoginProvider implements OAuthLoginProvider {
  readonly provider = 'wechat' as const
  readonly kind = 'wechat' as const
  constructor(private readonly config: WechatLoginConfig) {}

  authorizationUrl(i: { state: string; redirectUri: string }): string {
    const url = new URL('/connect/qrconnect', this.config.openBaseUrl)
    url.search = new URLSearchParams({ appid: this.config.appId, redirect_uri: i.redirectUri, response_type: 'code', scope: 'snsapi_login', state: i.state }).toString()
    url.hash = 'wechat_redirect'
    return url.toString()
  }

  async identify(i: { code: string; redirectUri: string }): Promise<OAuthIdentity> {
    const token = new URL('/sns/oauth2/access_token', this.config.apiBaseUrl)
    token.search = new URLSearchParams({ appid: this.config.appId, secret: this.config.appSecret, code: i.code, grant_type: 'authorization_code' }).toString()
    const t = readJson('access_token', await getText(token))
    if (t.errcode !== undefined && Number(t.errcode) !== 0) {
      const message = `WeChat access_token: ${String(t.errcode)} ${text(t.errmsg)}`
      throw CODE_ERRORS.has(Number(t.errcode)) ? new CodeRejected(message) : new ProviderUnavailable(message)
    }
    const accessToken = text(t.access_token)
    const openid = text(t.openid)
    if (!accessToken || !openid) throw new ProviderUnavailable('WeChat access_token: no access_token or openid')

    const info = new URL('/sns/userinfo', this.config.apiBaseUrl)
    info.search = new URLSearchParams({ access_token: accessToken, openid, lang: 'zh_CN' }).toString()
    let nickname = ''
    let unionid = text(t.unionid)
    // The profile is a courtesy (an errcode here does not stop the login), but its unionid counts.
    try {
      const p = readJson('userinfo', await getText(info))
      if (p.errcode === undefined || Number(p.errcode) === 0) {
        if (text(p.openid) && text(p.openid) !== openid) throw new CodeRejected('WeChat userinfo: another openid')
        nickname = text(p.nickname)
        unionid ||= text(p.unionid)
      }
    } catch (e) {
      if (!(e instanceof ProviderUnavailable)) throw e
    }
    return { openid, unionid: unionid || null, nickname: nickname.slice(0, 100) }
  }
}
