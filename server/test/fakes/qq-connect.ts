// A local QQ Connect (graph.qq.com) speaking its real formats (research/INTEGRATIONS.md §3.1):
// /oauth2.0/token answers form-encoded text, or JSON with fmt=json, errors as JSONP `callback( … );`;
// /oauth2.0/me answers JSONP (JSON with fmt=json), with the unionid only when asked and permitted;
// /user/get_user_info answers JSON with `ret`.
import crypto from 'node:crypto'
import { type FakeResponse, startServer } from './http.ts'

type Person = { openid: string; unionid?: string; nickname: string }
type Code = { person: Person; redirectUri: string; expiresAt: number; used: boolean }

const CODE_TTL_MS = 10 * 60_000

export class QQConnectFake {
  readonly appId = '101000001'
  readonly appKey = 'qq-app-key-secret'
  url = ''
  /** Whether the app has the unionid permission (else /me?unionid=1 fails with 100048). */
  unionidPermission = true
  /** Every request the fake saw, for tests that check what was sent. */
  readonly requests: URL[] = []
  private codes = new Map<string, Code>()
  private tokens = new Map<string, Person>()
  private close: (() => Promise<void>) | null = null
  private now = () => Date.now()

  async start() {
    const server = await startServer((req) => this.handle(req.url))
    this.url = server.url
    this.close = server.close
    return this
  }

  async stop() {
    await this.close?.()
  }

  /** What QQ's consent page does when the user agrees: a code for redirect_uri. */
  authorize(person: Person, redirectUri: string): string {
    const code = crypto.randomBytes(16).toString('hex').toUpperCase()
    this.codes.set(code, { person, redirectUri, expiresAt: this.now() + CODE_TTL_MS, used: false })
    return code
  }

  /** Lets a code age past its 10 minutes. */
  expire(code: string) {
    const c = this.codes.get(code)
    if (c) c.expiresAt = 0
  }

  private jsonp(body: object): FakeResponse {
    return { status: 200, headers: { 'content-type': 'text/html' }, body: `callback( ${JSON.stringify(body)} );\n` }
  }

  private handle(url: URL): FakeResponse {
    this.requests.push(url)
    const q = url.searchParams
    const json = q.get('fmt') === 'json'
    const error = (code: number, description: string) =>
      json ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: code, error_description: description }) } : this.jsonp({ error: code, error_description: description })

    if (url.pathname === '/oauth2.0/token') {
      if (q.get('grant_type') !== 'authorization_code') return error(100000, 'response_type is empty or error')
      if (q.get('client_id') !== this.appId) return error(100008, 'client_id is not exist')
      if (q.get('client_secret') !== this.appKey) return error(100009, 'client_secret is error')
      const code = this.codes.get(q.get('code') ?? '')
      if (!code || code.expiresAt < this.now()) return error(100019, 'code to access token error')
      if (code.used) return error(100020, 'code is reused error')
      if (code.redirectUri !== q.get('redirect_uri')) return error(100010, 'redirect uri is illegal')
      code.used = true
      const token = crypto.randomBytes(16).toString('hex').toUpperCase()
      this.tokens.set(token, code.person)
      const answer = { access_token: token, expires_in: '7776000', refresh_token: crypto.randomBytes(16).toString('hex').toUpperCase() }
      return json
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) }
        : { status: 200, headers: { 'content-type': 'text/plain' }, body: new URLSearchParams(answer).toString() }
    }
    if (url.pathname === '/oauth2.0/me') {
      const person = this.tokens.get(q.get('access_token') ?? '')
      if (!person) return error(100016, 'access token check failed')
      if (q.get('unionid') === '1' && !this.unionidPermission) return error(100048, 'companyid not set')
      const answer = { client_id: this.appId, openid: person.openid, ...(q.get('unionid') === '1' && person.unionid ? { unionid: person.unionid } : {}) }
      return json ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) } : this.jsonp(answer)
    }
    if (url.pathname === '/user/get_user_info') {
      const person = this.tokens.get(q.get('access_token') ?? '')
      const body =
        !person || q.get('openid') !== person.openid || q.get('oauth_consumer_key') !== this.appId
          ? { ret: 100016, msg: 'access token check failed' }
          : { ret: 0, msg: '', nickname: person.nickname, gender: '男', figureurl_qq_1: 'http://thirdqq.qlogo.cn/g?b=oidb&k=x&s=40' }
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    }
    return { status: 404, body: 'not found' }
  }
}
