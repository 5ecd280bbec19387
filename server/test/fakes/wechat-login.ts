// A local WeChat Open Platform website login speaking its real formats (research/INTEGRATIONS.md §3.2):
// sns/oauth2/access_token and sns/userinfo answer JSON, errors as HTTP 200 {"errcode":…,"errmsg":…};
// a code lives 10 minutes and works once (40029 invalid code, 40163 code been used).
import crypto from 'node:crypto'
import { type FakeResponse, startServer } from './http.ts'

type Person = { openid: string; unionid?: string; nickname: string }

const CODE_TTL_MS = 10 * 60_000

export class WechatLoginFake {
  readonly appId = 'wx0123456789abcdef'
  readonly appSecret = 'wechat-login-app-secret-0123456'
  url = ''
  private codes = new Map<string, { person: Person; expiresAt: number; used: boolean }>()
  private tokens = new Map<string, Person>()
  private close: (() => Promise<void>) | null = null

  async start() {
    const server = await startServer((req) => this.handle(req.url))
    this.url = server.url
    this.close = server.close
    return this
  }

  async stop() {
    await this.close?.()
  }

  /** What the QR consent does when the user confirms on the phone: a code. */
  authorize(person: Person): string {
    const code = crypto.randomBytes(16).toString('hex')
    this.codes.set(code, { person, expiresAt: Date.now() + CODE_TTL_MS, used: false })
    return code
  }

  expire(code: string) {
    const c = this.codes.get(code)
    if (c) c.expiresAt = 0
  }

  private handle(url: URL): FakeResponse {
    const q = url.searchParams
    const answer = (body: object): FakeResponse => ({ status: 200, headers: { 'content-type': 'application/json; encoding=utf-8' }, body: JSON.stringify(body) })
    const error = (errcode: number, errmsg: string) => answer({ errcode, errmsg: `${errmsg}, rid: ${crypto.randomBytes(4).toString('hex')}` })

    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== this.appId) return error(40013, 'invalid appid')
      if (q.get('secret') !== this.appSecret) return error(40125, 'invalid appsecret')
      if (!q.get('code')) return error(41008, 'missing code')
      if (q.get('grant_type') !== 'authorization_code') return error(40002, 'invalid grant_type')
      const code = this.codes.get(q.get('code')!)
      if (!code || code.expiresAt < Date.now()) return error(40029, 'invalid code')
      if (code.used) return error(40163, 'code been used')
      code.used = true
      const token = crypto.randomBytes(24).toString('base64url')
      this.tokens.set(token, code.person)
      return answer({
        access_token: token,
        expires_in: 7200,
        refresh_token: crypto.randomBytes(24).toString('base64url'),
        openid: code.person.openid,
        scope: 'snsapi_login',
        ...(code.person.unionid ? { unionid: code.person.unionid } : {}),
      })
    }
    if (url.pathname === '/sns/userinfo') {
      const person = this.tokens.get(q.get('access_token') ?? '')
      if (!person) return error(40001, 'invalid credential, access_token is invalid or not latest')
      if (q.get('openid') !== person.openid) return error(40003, 'invalid openid')
      return answer({
        openid: person.openid,
        nickname: person.nickname,
        sex: 0,
        province: '',
        city: '',
        country: '',
        headimgurl: '',
        privilege: [],
        ...(person.unionid ? { unionid: person.unionid } : {}),
      })
    }
    return { status: 404, body: 'not found' }
  }
}
