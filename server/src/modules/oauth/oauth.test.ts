import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginRecords, oauthIdentities, users } from '../../db/schema/index.ts'
import { QQLoginProvider } from '../../providers/oauth/qq.ts'
import { WechatLoginProvider } from '../../providers/oauth/wechat.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { QQConnectFake } from '../../../test/fakes/qq-connect.ts'
import { WechatLoginFake } from '../../../test/fakes/wechat-login.ts'
import { bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp, uniqueName } from '../../../test/helpers.ts'

const WEB = 'http://localhost:3000'
let n = 0
const person = (nickname = 'QQ用户') => ({ openid: `OPENID${++n}${Date.now()}`, unionid: `UNION${n}${Date.now()}`, nickname })

describe('QQ / WeChat login, bind and unbind (issue 12) against local fakes', () => {
  let t: TestApp
  let qq: QQConnectFake
  let wx: WechatLoginFake

  beforeAll(async () => {
    qq = await new QQConnectFake().start()
    wx = await new WechatLoginFake().start()
    t = await buildTestApp({
      oauth: {
        qq: new QQLoginProvider({ appId: qq.appId, appKey: qq.appKey, baseUrl: qq.url }),
        wechat: new WechatLoginProvider({ appId: wx.appId, appSecret: wx.appSecret, openBaseUrl: wx.url, apiBaseUrl: wx.url }),
      },
    })
  })
  afterAll(async () => {
    await t.close()
    await qq.stop()
    await wx.stop()
  })

  const post = (url: string, payload: object, token?: string) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: freshIp(), headers: { ...(token ? bearer(token) : {}), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' } })

  async function authorize(provider: 'qq' | 'wechat', purpose: 'login' | 'bind' = 'login', token?: string) {
    const res = await post('/api/oauth/authorize', { provider, purpose }, token)
    expect(res.statusCode, res.body).toBe(200)
    const { url, state, binding } = res.json().data as { url: string; state: string; binding: string }
    expect(new URL(url).searchParams.get('state')).toBe(state)
    // The binding stays with the browser: it is in no URL the provider sees.
    expect(url).not.toContain(binding)
    return { url: new URL(url), state, binding }
  }

  /** Authorize, "consent" at the fake, and come back: the callback's answer. */
  async function roundTrip(provider: 'qq' | 'wechat', who: ReturnType<typeof person>, purpose: 'login' | 'bind' = 'login', token?: string) {
    const { url, state, binding } = await authorize(provider, purpose, token)
    const redirect = url.searchParams.get('redirect_uri')!
    expect(redirect).toBe(`${WEB}/${purpose}/${provider}`)
    const code = provider === 'qq' ? qq.authorize(who, redirect) : wx.authorize(who)
    return { res: await post('/api/oauth/callback', { provider, code, state, binding }, token), state, binding, code }
  }

  async function createByQQ(who = person()) {
    const { res } = await roundTrip('qq', who)
    expect(res.json().data.kind).toBe('unknown')
    const name = uniqueName()
    const created = await post('/api/oauth/createAccount', { ticket: res.json().data.ticket, user_name: name })
    expect(created.statusCode, created.body).toBe(200)
    return { who, name, token: created.json().data.token as string }
  }

  it('offers both providers, served by the configured ones', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/oauth/providers' })
    expect(res.json().data).toEqual([
      { provider: 'qq', sandbox: false },
      { provider: 'wechat', sandbox: false },
    ])
  })

  it('first QQ login → create an account (no password) → the next QQ login lands on the same account, recorded as qq', async () => {
    const { who, name, token } = await createByQQ(person('小明'))
    const me = await t.app.inject({ method: 'GET', url: '/api/users/userInfo', headers: bearer(token) })
    expect(me.json().data.user_name).toBe(name)
    const [row] = await t.db.select().from(users).where(eq(users.userName, name))
    expect(row!.passwordHash).toBeNull()

    const again = (await roundTrip('qq', who)).res
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().data.kind).toBe('login')
    const me2 = await t.app.inject({ method: 'GET', url: '/api/users/userInfo', headers: bearer(again.json().data.token) })
    expect(me2.json().data.id).toBe(row!.id)

    const records = await t.db.select().from(loginRecords).where(eq(loginRecords.userId, row!.id))
    expect(records.map((r) => r.method)).toEqual(['qq', 'qq'])
    const admin = await t.login('admin', 'Admin@2026')
    const list = await t.app.inject({ method: 'GET', url: `/api/loginRecords/admin/list?keyword=${name}`, headers: bearer(admin) })
    expect(list.json().data.list[0].method).toBe('qq')
    // No password was set: the account cannot be entered with a password, not even an empty-looking one.
    const pw = await post('/api/auth/login', { username: name, password: 'Anything@123' })
    expect(pw.statusCode).toBe(401)
  })

  it('a state is single-use, bound to its provider, and must exist', async () => {
    const who = person()
    const { res, state, binding } = await roundTrip('qq', who)
    expect(res.statusCode).toBe(200)
    const replay = await post('/api/oauth/callback', { provider: 'qq', code: qq.authorize(who, `${WEB}/login/qq`), state, binding })
    expect(replay.statusCode).toBe(400)
    expect(replay.json().msg).toBe('oauth.stateInvalid')
    const forged = await post('/api/oauth/callback', { provider: 'qq', code: qq.authorize(who, `${WEB}/login/qq`), state: 'not-a-state', binding })
    expect(forged.json().msg).toBe('oauth.stateInvalid')
    const other = await authorize('qq')
    const crossed = await post('/api/oauth/callback', { provider: 'wechat', code: wx.authorize(who), state: other.state, binding: other.binding })
    expect(crossed.json().msg).toBe('oauth.stateInvalid')
    const missing = await post('/api/oauth/callback', { provider: 'qq', code: 'x' })
    expect(missing.statusCode).toBe(422)
  })

  it('two callbacks racing with one state: one goes through', async () => {
    const who = person()
    const { url, state, binding } = await authorize('qq')
    const redirect = url.searchParams.get('redirect_uri')!
    const answers = await Promise.all([0, 1, 2].map(() => post('/api/oauth/callback', { provider: 'qq', code: qq.authorize(who, redirect), state, binding })))
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400])
  })

  it('an expired or reused code is refused with its own message; an unreachable provider is a 502', async () => {
    const who = person()
    const first = await authorize('qq')
    const code = qq.authorize(who, first.url.searchParams.get('redirect_uri')!)
    qq.expire(code)
    const expired = await post('/api/oauth/callback', { provider: 'qq', code, state: first.state, binding: first.binding })
    expect(expired.statusCode).toBe(400)
    expect(expired.json().msg).toBe('oauth.codeRejected')

    const used = await roundTrip('wechat', who)
    expect(used.res.statusCode).toBe(200)
    const second = await authorize('wechat')
    const reused = await post('/api/oauth/callback', { provider: 'wechat', code: used.code, state: second.state, binding: second.binding })
    expect(reused.json().msg).toBe('oauth.codeRejected')

    const down = await buildTestApp({ oauth: { qq: new QQLoginProvider({ appId: 'a', appKey: 'b', baseUrl: 'http://127.0.0.1:1' }) } })
    try {
      const a = await down.app.inject({ method: 'POST', url: '/api/oauth/authorize', payload: { provider: 'qq' } })
      const res = await down.app.inject({ method: 'POST', url: '/api/oauth/callback', payload: { provider: 'qq', code: 'c', state: a.json().data.state, binding: a.json().data.binding } })
      expect(res.statusCode).toBe(502)
      expect(res.json().msg).toBe('oauth.providerFailed')
    } finally {
      await down.close()
    }
  })

  it('bind WeChat from settings → log in with WeChat → unbind; the last way in stays', async () => {
    const { name, token } = await createByQQ()
    const wechatPerson = person('微信用户')
    const bound = await roundTrip('wechat', wechatPerson, 'bind', token)
    expect(bound.res.statusCode, bound.res.body).toBe(200)
    expect(bound.res.json().data).toEqual({ kind: 'bound', provider: 'wechat' })

    const login = (await roundTrip('wechat', wechatPerson)).res
    expect(login.json().data.kind).toBe('login')
    const me = await t.app.inject({ method: 'GET', url: '/api/users/userInfo', headers: bearer(login.json().data.token) })
    expect(me.json().data.user_name).toBe(name)

    const list = await t.app.inject({ method: 'GET', url: '/api/oauth/bindings', headers: bearer(token) })
    expect(list.json().data).toMatchObject({ has_password: false, available: ['qq', 'wechat'] })
    expect(list.json().data.list.map((b: { provider: string; nickname: string }) => [b.provider, b.nickname])).toEqual([
      ['qq', 'QQ用户'],
      ['wechat', '微信用户'],
    ])

    expect((await post('/api/oauth/unbind', { provider: 'wechat' }, token)).statusCode).toBe(200)
    const again = await post('/api/oauth/unbind', { provider: 'wechat' }, token)
    expect(again.statusCode).toBe(404)
    expect(again.json().msg).toBe('oauth.notBound')
    const last = await post('/api/oauth/unbind', { provider: 'qq' }, token)
    expect(last.statusCode).toBe(409)
    expect(last.json().msg).toBe('oauth.lastLogin')
    // The unbound WeChat identity is unknown again.
    expect((await roundTrip('wechat', wechatPerson)).res.json().data.kind).toBe('unknown')
  })

  it('two unbinds racing on an account without a password: one of them is refused', async () => {
    const { token } = await createByQQ()
    await roundTrip('wechat', person(), 'bind', token)
    const answers = await Promise.all([post('/api/oauth/unbind', { provider: 'qq' }, token), post('/api/oauth/unbind', { provider: 'wechat' }, token)])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
  })

  it('an account with a password may unbind its only identity', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    expect((await roundTrip('qq', person(), 'bind', token)).res.statusCode).toBe(200)
    expect((await post('/api/oauth/unbind', { provider: 'qq' }, token)).statusCode).toBe(200)
  })

  it('one identity binds to one account; one identity per provider per account', async () => {
    const a = await createByQQ()
    const b = await createUser(t.db)
    const bToken = await t.login(b.userName, b.password)
    const taken = (await roundTrip('qq', a.who, 'bind', bToken)).res
    expect(taken.statusCode).toBe(409)
    expect(taken.json().msg).toBe('oauth.identityTaken')
    const second = (await roundTrip('qq', person(), 'bind', a.token)).res
    expect(second.statusCode).toBe(409)
    expect(second.json().msg).toBe('oauth.providerAlreadyBound')
    // Binding the identity it already has is a no-op.
    expect((await roundTrip('qq', a.who, 'bind', a.token)).res.statusCode).toBe(200)
  })

  it('a bind state counts only with the token of the account that started it', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    const other = await createUser(t.db)
    const otherToken = await t.login(other.userName, other.password)
    const { url, state, binding } = await authorize('wechat', 'bind', token)
    expect(url.searchParams.get('redirect_uri')).toBe(`${WEB}/bind/wechat`)
    const lured = await post('/api/oauth/callback', { provider: 'wechat', code: wx.authorize(person()), state, binding }, otherToken)
    expect(lured.json().msg).toBe('oauth.stateInvalid')
    const anonymous = await post('/api/oauth/authorize', { provider: 'qq', purpose: 'bind' })
    expect(anonymous.statusCode).toBe(401)
    expect(await t.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, u.id))).toEqual([])
  })

  it('unknown identity → bind to an existing account with its password once; a wrong password leaves the ticket usable', async () => {
    const u = await createUser(t.db)
    const who = person()
    const ticket = (await roundTrip('wechat', who)).res.json().data.ticket as string
    const wrong = await post('/api/oauth/bindExisting', { ticket, username: u.userName, password: 'Wrong@pass1' })
    expect(wrong.statusCode).toBe(401)
    const ok = await post('/api/oauth/bindExisting', { ticket, username: u.userName, password: u.password })
    expect(ok.statusCode, ok.body).toBe(200)
    const spent = await post('/api/oauth/bindExisting', { ticket, username: u.userName, password: u.password })
    expect(spent.json().msg).toBe('oauth.ticketInvalid')
    const [rec] = await t.db.select().from(loginRecords).where(and(eq(loginRecords.userId, u.id), eq(loginRecords.method, 'wechat')))
    expect(rec).toBeDefined()
    expect((await roundTrip('wechat', who)).res.json().data.kind).toBe('login')
  })

  it('create: a taken user name is said and leaves the ticket usable; two creates racing on one ticket make one account', async () => {
    const ticket = (await roundTrip('qq', person())).res.json().data.ticket as string
    const taken = await post('/api/oauth/createAccount', { ticket, user_name: 'admin' })
    expect(taken.statusCode).toBe(409)
    const names = [uniqueName(), uniqueName()]
    const answers = await Promise.all(names.map((user_name) => post('/api/oauth/createAccount', { ticket, user_name })))
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400])
    const made = await t.db.select().from(users).where(eq(users.userName, names[0]!))
    const made2 = await t.db.select().from(users).where(eq(users.userName, names[1]!))
    expect(made.length + made2.length).toBe(1)
  })

  it('a banned account cannot log in with its QQ', async () => {
    const { who, name } = await createByQQ()
    await t.db.update(users).set({ isBanned: 1 }).where(eq(users.userName, name))
    const res = (await roundTrip('qq', who)).res
    expect(res.statusCode).toBe(403)
    expect(res.json().msg).toBe('auth.banned')
  })

  it('bad input is refused with a message and changes nothing', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    const before = await dbFingerprint(t.db)
    const opaque = { type: 'string', required: true, freeText: true } as const
    const cases = [
      ...badInputs({ method: 'POST', url: '/api/oauth/authorize', body: { fields: { provider: { type: 'string', required: true }, purpose: { type: 'string' } }, valid: { provider: 'qq' } } }),
      ...badInputs({ method: 'POST', url: '/api/oauth/callback', body: { fields: { provider: { type: 'string', required: true }, code: opaque, state: opaque, binding: opaque }, valid: { provider: 'qq', code: 'c', state: 's', binding: 'b' } } }),
      ...badInputs({ method: 'POST', url: '/api/oauth/createAccount', body: { fields: { ticket: opaque, user_name: { type: 'string', required: true } }, valid: { ticket: 't', user_name: 'someone1' } } }),
      ...badInputs({ method: 'POST', url: '/api/oauth/bindExisting', body: { fields: { ticket: opaque, username: { ...opaque }, password: { ...opaque } }, valid: { ticket: 't', username: 'x', password: 'y' } } }),
      ...badInputs({ method: 'POST', url: '/api/oauth/unbind', headers: bearer(token), body: { fields: { provider: { type: 'string', required: true } }, valid: { provider: 'qq' } } }),
    ]
    for (const c of cases) {
      // authorize's valid body would create an attempt row: only its refused variants are sent.
      const res = await t.app.inject({ ...c.request, remoteAddress: freshIp() })
      if (c.request.url === '/api/oauth/unbind' && res.statusCode === 404) continue
      if (res.statusCode === 401 && c.request.url === '/api/oauth/bindExisting') continue
      if (res.statusCode === 400 && (res.json().msg as string).startsWith('oauth.')) continue
      expectRejected(res, c)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    const res = await t.app.inject({ method: 'GET', url: '/api/oauth/bindings' })
    expect(res.statusCode).toBe(401)
  })
})

describe('the sandbox consent page', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(() => t.close())

  it('lets a local user pick a test identity and come back with a code that logs in', async () => {
    const providers = await t.app.inject({ method: 'GET', url: '/api/oauth/providers' })
    expect(providers.json().data).toEqual([
      { provider: 'qq', sandbox: true },
      { provider: 'wechat', sandbox: true },
    ])
    const a = await t.app.inject({ method: 'POST', url: '/api/oauth/authorize', payload: { provider: 'qq' } })
    const consent = new URL(a.json().data.url)
    expect(consent.pathname).toBe('/api/oauth/sandbox/authorize')
    const page = await t.app.inject({ method: 'GET', url: consent.pathname + consent.search })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Sandbox')

    const tampered = new URLSearchParams(consent.search)
    tampered.set('redirect_uri', 'http://evil.example/steal')
    expect((await t.app.inject({ method: 'GET', url: `${consent.pathname}?${tampered}` })).statusCode).toBe(400)
    const forgedPost = await t.app.inject({ method: 'POST', url: consent.pathname, payload: { ...Object.fromEntries(tampered), action: 'allow', identity: 'a' } })
    expect(forgedPost.statusCode).toBe(400)

    const denied = await t.app.inject({ method: 'POST', url: consent.pathname, payload: { ...Object.fromEntries(consent.searchParams), action: 'deny' } })
    expect(denied.statusCode).toBe(303)
    expect(new URL(denied.headers.location!).searchParams.get('error')).toBe('access_denied')

    const allowed = await t.app.inject({ method: 'POST', url: consent.pathname, payload: { ...Object.fromEntries(consent.searchParams), action: 'allow', identity: 'custom', name: 'Tester' } })
    expect(allowed.statusCode).toBe(303)
    const back = new URL(allowed.headers.location!)
    expect(back.origin + back.pathname).toBe('http://localhost:3000/login/qq')
    const res = await t.app.inject({ method: 'POST', url: '/api/oauth/callback', payload: { provider: 'qq', code: back.searchParams.get('code'), state: back.searchParams.get('state'), binding: a.json().data.binding } })
    expect(res.json().data).toMatchObject({ kind: 'unknown', nickname: 'Tester' })
  })

  it('is not served when the sandbox is off', async () => {
    const off = await buildTestApp({ config: { oauth: { sandbox: false, callbackBaseUrl: WEB } } })
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/oauth/providers' })).json().data).toEqual([])
      expect((await off.app.inject({ method: 'GET', url: '/api/oauth/sandbox/authorize' })).statusCode).toBe(404)
      const a = await off.app.inject({ method: 'POST', url: '/api/oauth/authorize', payload: { provider: 'qq' } })
      expect(a.statusCode).toBe(404)
      expect(a.json().msg).toBe('oauth.unavailable')
    } finally {
      await off.close()
    }
  })
})
