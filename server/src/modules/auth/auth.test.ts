import { and, eq, sql } from 'drizzle-orm'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { authTokens, loginRecords, users, verificationCodes } from '../../db/schema/index.ts'
import { createRateLimits } from '../../plugins/app/rate-limits.ts'
import { verifyPassword } from '../credentials/passwords.ts'
import { SQL_PAYLOAD, HTML_PAYLOAD, type EndpointSpec, badInputs, expectRejected } from '../../../test/bad-input.ts'
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  DEMO_SELLER,
  type TestApp,
  ageCodes,
  bearer,
  buildTestApp,
  createUser,
  dbFingerprint,
  freshIp,
  uniqueEmail,
  uniqueName,
  uniquePhone,
} from '../../../test/helpers.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

type Body<T = unknown> = { code: number; msg: string; data: T }
/** Every request from its own address unless one is given, so per-IP limits stay out of the way. */
const call = (o: InjectOptions) => t.app.inject({ remoteAddress: freshIp(), ...o })
const post = (url: string, payload?: object, o: Partial<InjectOptions> = {}) => call({ method: 'POST', url, payload, ...o })
const get = (url: string, o: Partial<InjectOptions> = {}) => call({ method: 'GET', url, ...o })

/** Asserts the envelope with the HTTP status mirroring `code`, and returns it. */
function envelope<T = unknown>(res: LightMyRequestResponse, status: number, msg?: string): Body<T> {
  const body = res.json() as Body<T>
  expect(res.statusCode, res.body).toBe(status)
  expect(body.code).toBe(status)
  expect(typeof body.msg).toBe('string')
  expect(body).toHaveProperty('data')
  if (msg) expect(body.msg).toBe(msg)
  return body
}

const userInfo = (token: string) => get('/api/users/userInfo', { headers: bearer(token) })
const countUsers = async (where = sql`true`) => (await t.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where))[0]!.n

async function codeFor(kind: 'email' | 'phone', target: string, path?: string, o: Partial<InjectOptions> = {}) {
  const url = path ?? (kind === 'email' ? '/api/auth/getRegisterVerificationCode' : '/api/auth/getPhoneRegisterVerificationCode')
  const res = await get(`${url}?${kind}=${encodeURIComponent(target)}`, o)
  envelope(res, 200, 'auth.codeSent')
  const [latest] = await t.outbox(kind === 'email' ? target.toLowerCase() : target)
  expect(latest?.code).toMatch(/^\d{6}$/)
  return latest!.code
}

const newAccount = () => {
  const user_name = uniqueName('reg')
  return { user_name, email: uniqueEmail(user_name), phone: uniquePhone(), password: 'Abc@123x' }
}

describe('POST /api/auth/login', () => {
  it.each([
    ['user name', DEMO_SELLER.userName],
    ['email', DEMO_SELLER.email],
    ['phone', DEMO_SELLER.phone],
    ['user name in another case', DEMO_SELLER.userName.toUpperCase()],
    ['email in another case', DEMO_SELLER.email.toUpperCase()],
    ['user name with spaces around', `  ${DEMO_SELLER.userName} `],
  ])('logs in by %s', async (_how, username) => {
    const body = envelope<{ token: string }>(await post('/api/auth/login', { username, password: DEMO_PASSWORD }), 200, 'auth.welcome')
    expect(body.data.token).toMatch(/^[\w-]{40,}$/)
    const me = envelope<{ user_name: string }>(await userInfo(body.data.token), 200)
    expect(me.data.user_name).toBe(DEMO_SELLER.userName)
  })

  it('answers 401 for a wrong password and for an unknown account alike', async () => {
    const wrong = envelope(await post('/api/auth/login', { username: DEMO_SELLER.userName, password: 'Wrong@123' }), 401, 'auth.badCredentials')
    const unknown = envelope(await post('/api/auth/login', { username: 'nobody_here', password: 'Wrong@123' }), 401, 'auth.badCredentials')
    expect(wrong).toEqual({ code: 401, msg: 'auth.badCredentials', data: null })
    expect(unknown).toEqual(wrong)
  })

  it('is not fooled by SQL or HTML in the credentials', async () => {
    for (const payload of [SQL_PAYLOAD, HTML_PAYLOAD, "admin' --", "admin'/*"]) {
      envelope(await post('/api/auth/login', { username: payload, password: payload }), 401, 'auth.badCredentials')
    }
    envelope(await post('/api/auth/login', { username: 'admin', password: SQL_PAYLOAD }), 401)
  })

  it('writes a login record with browser, device and IP, and remembers the last login', async () => {
    const u = await createUser(t.db)
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
    await post('/api/auth/login', { username: u.userName, password: 'Wrong@123' }, { remoteAddress: '198.51.100.7' })
    envelope(await post('/api/auth/login', { username: u.userName, password: u.password }, { remoteAddress: '203.0.113.9', headers: { 'user-agent': ua } }), 200)
    const records = await t.db.select().from(loginRecords).where(eq(loginRecords.userId, u.id))
    expect(records).toHaveLength(1) // the failed try is not a login
    expect(records[0]).toMatchObject({ userName: u.userName, email: u.email, ip: '203.0.113.9' })
    expect(records[0]!.browser).toMatch(/Safari/)
    expect(records[0]!.device).toMatch(/mobile.*Apple.*iPhone.*iOS/)
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id))
    expect(row!.lastLoginIp).toBe('203.0.113.9')
    expect(Date.now() - row!.lastLoginTime!.getTime()).toBeLessThan(60_000)

    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    envelope(await post('/api/auth/login', { username: u.userName, password: u.password }, { remoteAddress: '203.0.113.10', headers: { 'user-agent': chrome } }), 200)
    const all = await t.db.select().from(loginRecords).where(eq(loginRecords.userId, u.id))
    expect(all).toHaveLength(2)
    expect(all.find((r) => r.ip === '203.0.113.10')).toMatchObject({ browser: 'Chrome 124', device: 'desktop · Windows 10' })
  })

  it('refuses a banned user with 403, and the ban revokes the tokens it had', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    const admin = await t.login('admin', ADMIN_PASSWORD)
    envelope(await post('/api/users/admin/update', { id: u.id, is_banned: 1 }, { headers: bearer(admin) }), 200)

    // The token is revoked, but its holder is told why (not a bare 401 that looks like an expired session).
    envelope(await userInfo(token), 401, 'auth.banned')
    const live = await t.db.select().from(authTokens).where(and(eq(authTokens.userId, u.id), sql`${authTokens.revokedAt} is null`))
    expect(live).toHaveLength(0)
    envelope(await post('/api/auth/login', { username: u.userName, password: u.password }), 403, 'auth.banned')
    // A wrong password says nothing about the ban.
    envelope(await post('/api/auth/login', { username: u.userName, password: 'Wrong@123' }), 401, 'auth.badCredentials')
    expect(await t.db.select().from(authTokens).where(eq(authTokens.userId, u.id))).toHaveLength(1)

    envelope(await post('/api/users/admin/update', { id: u.id, is_banned: 0 }, { headers: bearer(admin) }), 200)
    const again = await t.login(u.userName, u.password)
    envelope(await userInfo(again), 200)
    envelope(await userInfo(token), 401) // lifting the ban does not bring old tokens back
  })

  it('a disabled account cannot log in either', async () => {
    const u = await createUser(t.db)
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, u.id))
    envelope(await post('/api/auth/login', { username: u.userName, password: u.password }), 403, 'auth.banned')
  })
})

describe('a token of a banned or disabled account', () => {
  it('answers 401 auth.banned on every authenticated call, admin ones included', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    const other = await createUser(t.db, { role: 'admin' })
    const adminToken = await t.login(other.userName, other.password)
    const admin = await t.login('admin', ADMIN_PASSWORD)
    for (const id of [u.id, other.id]) envelope(await post('/api/users/admin/update', { id, is_banned: 1 }, { headers: bearer(admin) }), 200)

    envelope(await userInfo(token), 401, 'auth.banned')
    envelope(await post('/api/users/update', { user_name: u.userName, profile: 'x' }, { headers: bearer(token) }), 401, 'auth.banned')
    envelope(await post('/api/user/menu', undefined, { headers: bearer(token) }), 401, 'auth.banned')
    envelope(await get('/api/users/list', { headers: bearer(adminToken) }), 401, 'auth.banned')
    envelope(await get('/api/loginRecords/admin/list', { headers: bearer(adminToken) }), 401, 'auth.banned')
  })

  it('also when the account was banned or disabled without its tokens being revoked', async () => {
    const banned = await createUser(t.db)
    const disabled = await createUser(t.db)
    const [bt, dt] = [await t.login(banned.userName, banned.password), await t.login(disabled.userName, disabled.password)]
    await t.db.update(users).set({ isBanned: 1 }).where(eq(users.id, banned.id))
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.id))
    envelope(await userInfo(bt), 401, 'auth.banned')
    envelope(await userInfo(dt), 401, 'auth.banned')
  })

  it('says nothing about bans for expired tokens, logged-out tokens of active accounts, or unknown tokens', async () => {
    const u = await createUser(t.db)
    const expired = await t.login(u.userName, u.password)
    await t.db.update(authTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(authTokens.userId, u.id))
    const loggedOut = await t.login(u.userName, u.password)
    envelope(await post('/api/auth/logout', undefined, { headers: bearer(loggedOut) }), 200)
    await t.db.update(users).set({ isBanned: 1 }).where(eq(users.id, u.id))
    envelope(await userInfo(expired), 401, 'auth.unauthorized')
    await t.db.update(users).set({ isBanned: 0 }).where(eq(users.id, u.id))
    envelope(await userInfo(loggedOut), 401, 'auth.unauthorized')
    envelope(await userInfo('y'.repeat(43)), 401, 'auth.unauthorized')
  })
})

describe('POST /api/auth/logout', () => {
  it('revokes the token it is called with, and only that one', async () => {
    const u = await createUser(t.db)
    const first = await t.login(u.userName, u.password)
    const second = await t.login(u.userName, u.password)
    envelope(await userInfo(first), 200)
    expect(envelope(await post('/api/auth/logout', undefined, { headers: bearer(first) }), 200).data).toBeNull()
    envelope(await userInfo(first), 401, 'auth.unauthorized')
    envelope(await userInfo(second), 200)
  })
  it('answers 200 without a token (the console clears its state either way)', async () => {
    envelope(await post('/api/auth/logout'), 200)
    envelope(await post('/api/auth/logout', undefined, { headers: bearer('not-a-token') }), 200)
  })
})

describe('GET /api/users/userInfo', () => {
  it('returns the SPEC §3 user and never the password hash', async () => {
    const token = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    const res = await userInfo(token)
    const body = envelope<Record<string, unknown>>(res, 200)
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'id',
        'uid',
        'user_name',
        'email',
        'phone',
        'role',
        'status',
        'profile',
        'is_banned',
        'last_login_iP',
        'last_login_time',
        'terms_agreed_at',
        'alipayRealName',
        'alipayAccount',
        'created_at',
      ].sort(),
    )
    expect(body.data).toMatchObject({ user_name: DEMO_SELLER.userName, email: DEMO_SELLER.email, phone: DEMO_SELLER.phone, role: 'user', is_banned: 0 })
    expect(res.body).not.toMatch(/argon2|password/i)
  })
  it.each([
    ['no header', {}],
    ['an unknown token', bearer('x'.repeat(43))],
    ['a 10 KB token', bearer('x'.repeat(10240))],
    ['SQL as the token', { authorization: `Bearer ${SQL_PAYLOAD}` }],
    ['another scheme', { authorization: 'Basic YWRtaW46QWRtaW5AMjAyNg==' }],
    ['a bare token', { authorization: 'abc' }],
  ])('answers 401 for %s', async (_why, headers) => {
    envelope(await get('/api/users/userInfo', { headers }), 401, 'auth.unauthorized')
  })
  it('answers 401 for an expired token', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    await t.db.update(authTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(authTokens.userId, u.id))
    envelope(await userInfo(token), 401)
  })
})

describe('registration', () => {
  it('registers by email with a code from the outbox', async () => {
    const a = newAccount()
    const res = await get(`/api/auth/getRegisterVerificationCode?email=${a.email}`)
    expect(envelope(res, 200, 'auth.codeSent').data).toEqual({ resendAfter: 60, delivery: 'outbox' })
    const [sent] = await t.outbox(a.email)
    expect(sent).toMatchObject({ channel: 'email', purpose: 'register' })
    // Only an HMAC of the code is stored.
    const [row] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, a.email))
    expect(row!.codeHash).not.toContain(sent!.code)

    const body = envelope(
      await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: sent!.code }),
      201,
      'auth.registered',
    )
    expect(body.data).toBeNull()
    const [created] = await t.db.select().from(users).where(eq(users.userName, a.user_name))
    expect(created).toMatchObject({ email: a.email, phone: null, role: 'user', isBanned: 0, status: 'active' })
    expect(created!.passwordHash).not.toContain(a.password)
    expect(await verifyPassword(created!.passwordHash!, a.password)).toBe(true)
    await t.login(a.email, a.password)
    await t.login(a.user_name, a.password)
    const [used] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, a.email))
    expect(used!.consumedAt).not.toBeNull()
  })

  it('registers by phone with a code from the outbox', async () => {
    const a = newAccount()
    const code = await codeFor('phone', a.phone)
    expect((await t.outbox(a.phone))[0]).toMatchObject({ channel: 'sms', purpose: 'register' })
    envelope(await post('/api/auth/register/phone', { user_name: a.user_name, phone: a.phone, password: a.password, verificationCode: code }), 201)
    const [created] = await t.db.select().from(users).where(eq(users.phone, a.phone))
    expect(created).toMatchObject({ userName: a.user_name, email: null })
    await t.login(a.phone, a.password)
  })

  it('stores the email as given but matches it case-insensitively', async () => {
    const a = newAccount()
    const mixed = a.email.replace(/^./, (c) => c.toUpperCase()).replace('example', 'EXAMPLE')
    const code = await codeFor('email', mixed)
    envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: mixed, password: a.password, verificationCode: code }), 201)
    await t.login(a.email, a.password)
    // Taken now, in any case: a further sign-up code is answered as usual but goes nowhere.
    await ageCodes(t.db, a.email, 61)
    envelope(await get(`/api/auth/getRegisterVerificationCode?email=${a.email.toUpperCase()}`), 200, 'auth.codeSent')
    expect(await t.outbox(a.email)).toHaveLength(1)
  })

  it('a taken user name → 409, nothing created, and the code still works for a free name', async () => {
    const a = newAccount()
    const code = await codeFor('email', a.email)
    for (const name of [DEMO_SELLER.userName, DEMO_SELLER.userName.toUpperCase()]) {
      const body = envelope<{ fieldErrors: Record<string, string[]> }>(
        await post('/api/auth/register/email', { user_name: name, email: a.email, password: a.password, verificationCode: code }),
        409,
        'auth.userNameTaken',
      )
      expect(body.data.fieldErrors).toEqual({ user_name: ['auth.userNameTaken'] })
    }
    expect(await countUsers(sql`lower(${users.email}) = ${a.email}`)).toBe(0)
    envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: code }), 201)
  })

  it('a taken email or phone is sent no code (answered like a free one), and one taken meanwhile → 409 at sign-up', async () => {
    const owner = await createUser(t.db, { phone: uniquePhone() })
    envelope(await get(`/api/auth/getRegisterVerificationCode?email=${owner.email!.toUpperCase()}`), 200, 'auth.codeSent')
    envelope(await get(`/api/auth/getPhoneRegisterVerificationCode?phone=${owner.phone}`), 200, 'auth.codeSent')
    expect(await t.outbox(owner.email!)).toHaveLength(0)
    expect(await t.outbox(owner.phone!)).toHaveLength(0)

    const a = newAccount()
    const emailCode = await codeFor('email', a.email)
    const phoneCode = await codeFor('phone', a.phone)
    // Someone else takes both before this sign-up completes.
    await createUser(t.db, { email: a.email.toUpperCase(), phone: a.phone })
    const usersBefore = await countUsers()
    const e = envelope<{ fieldErrors: object }>(
      await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: emailCode }),
      409,
      'auth.emailTaken',
    )
    expect(e.data.fieldErrors).toEqual({ email: ['auth.emailTaken'] })
    envelope(await post('/api/auth/register/phone', { user_name: a.user_name, phone: a.phone, password: a.password, verificationCode: phoneCode }), 409, 'auth.phoneTaken')
    expect(await countUsers()).toBe(usersBefore)
  })

  it('a sign-up code for a registered email or phone cannot be told from one for a free address', async () => {
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
    const timed = async (url: string) => {
      const started = performance.now()
      const res = await get(url)
      return { res, ms: performance.now() - started }
    }
    for (const kind of ['email', 'phone'] as const) {
      const path = kind === 'email' ? '/api/auth/getRegisterVerificationCode' : '/api/auth/getPhoneRegisterVerificationCode'
      const ms = { taken: [] as number[], free: [] as number[] }
      for (let i = 0; i < 5; i++) {
        const owner = await createUser(t.db, { phone: uniquePhone() })
        const taken = kind === 'email' ? owner.email! : owner.phone!
        const free = kind === 'email' ? `${uniqueName('free')}@example.com` : uniquePhone()
        // Alternate which goes first, so warm-up does not favour one side.
        let a, b
        if (i % 2) {
          a = await timed(`${path}?${kind}=${taken}`)
          b = await timed(`${path}?${kind}=${free}`)
        } else {
          b = await timed(`${path}?${kind}=${free}`)
          a = await timed(`${path}?${kind}=${taken}`)
        }
        ms.taken.push(a.ms)
        ms.free.push(b.ms)
        // Status, msg, data and headers alike.
        expect(a.res.statusCode).toBe(200)
        expect(a.res.statusCode).toBe(b.res.statusCode)
        expect(a.res.json()).toEqual(b.res.json())
        expect(Object.keys(a.res.headers).sort()).toEqual(Object.keys(b.res.headers).sort())
        expect(await t.outbox(taken)).toHaveLength(0)
        expect(await t.outbox(free)).toHaveLength(1)
        // Asked again at once: throttled alike.
        const [again, againFree] = [await get(`${path}?${kind}=${taken}`), await get(`${path}?${kind}=${free}`)]
        expect(again.statusCode).toBe(429)
        expect(again.json()).toMatchObject({ code: 429, msg: 'auth.codeTooSoon' })
        expect(againFree.json().msg).toBe(again.json().msg)
      }
      // Roughly the same work either way (the free one also writes the outbox row): no early answer.
      expect(median(ms.taken)).toBeGreaterThan(median(ms.free) / 3)
      expect(median(ms.taken)).toBeLessThan(median(ms.free) * 3 + 20)
    }
  })

  it('signing up with a registered address and a guessed code answers like a wrong code for a free one', async () => {
    const owner = await createUser(t.db, { phone: uniquePhone() })
    const a = newAccount()
    await codeFor('email', a.email)
    await get(`/api/auth/getRegisterVerificationCode?email=${owner.email}`)
    const guess = { user_name: a.user_name, password: a.password, verificationCode: '123456' }
    const free = await post('/api/auth/register/email', { ...guess, email: `${uniqueName('free')}@example.com` })
    const codeForFree = await post('/api/auth/register/email', { ...guess, email: a.email, verificationCode: (await t.outbox(a.email))[0]!.code === '123456' ? '654321' : '123456' })
    const taken = await post('/api/auth/register/email', { ...guess, email: owner.email })
    const takenPhone = await post('/api/auth/register/phone', { ...guess, phone: owner.phone })
    for (const res of [codeForFree, taken, takenPhone]) {
      expect(res.statusCode).toBe(free.statusCode)
      expect(res.json()).toEqual(free.json())
    }
    expect(free.json()).toEqual({ code: 422, msg: 'validation.failed', data: { fieldErrors: { verificationCode: ['auth.codeInvalid'] } } })
  })

  it('a wrong code → 422; four wrong tries still leave the right code usable', async () => {
    const a = newAccount()
    const code = await codeFor('email', a.email)
    const wrong = code === '000000' ? '000001' : '000000'
    for (let i = 0; i < 4; i++) {
      const body = envelope<{ fieldErrors: object }>(
        await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: wrong }),
        422,
        'validation.failed',
      )
      expect(body.data.fieldErrors).toEqual({ verificationCode: ['auth.codeInvalid'] })
    }
    expect(await countUsers(eq(users.userName, a.user_name))).toBe(0)
    envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: code }), 201)
  })

  it('the fifth wrong try voids the code: even the right code then fails', async () => {
    const a = newAccount()
    const code = await codeFor('phone', a.phone)
    const wrong = code === '999999' ? '999998' : '999999'
    for (let i = 0; i < 5; i++) {
      envelope(await post('/api/auth/register/phone', { user_name: a.user_name, phone: a.phone, password: a.password, verificationCode: wrong }), 422)
    }
    const [row] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, a.phone))
    expect(row).toMatchObject({ attempts: 5 })
    expect(row!.consumedAt).not.toBeNull()
    envelope(await post('/api/auth/register/phone', { user_name: a.user_name, phone: a.phone, password: a.password, verificationCode: code }), 422)
    expect(await countUsers(eq(users.phone, a.phone))).toBe(0)
  })

  it('an expired code, a code for another address and a code for another purpose all fail', async () => {
    const a = newAccount()
    const b = newAccount()
    const codeA = await codeFor('email', a.email)
    // Sent to a, used for b.
    await codeFor('email', b.email)
    envelope(await post('/api/auth/register/email', { user_name: b.user_name, email: b.email, password: b.password, verificationCode: codeA }), 422)
    // Expired.
    await t.db.update(verificationCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verificationCodes.target, a.email))
    envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: codeA }), 422)
    expect(await countUsers(eq(users.userName, a.user_name))).toBe(0)
    // A register code cannot reset a password, even once the address has an account.
    const c = newAccount()
    const registerCode = await codeFor('email', c.email)
    const u = await createUser(t.db, { email: c.email })
    envelope(await post('/api/auth/forgotPassword', { email: c.email, verificationCode: registerCode, password: 'New@pass1' }), 422)
    await t.login(u.userName, u.password)
  })

  it('a resend within 60 s → 429 with retry-after; later, the new code replaces the old one', async () => {
    const a = newAccount()
    const first = await codeFor('email', a.email)
    const res = await get(`/api/auth/getRegisterVerificationCode?email=${a.email}`)
    const body = envelope<{ retryAfter: number }>(res, 429, 'auth.codeTooSoon')
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(body.data.retryAfter).toBe(Number(res.headers['retry-after']))
    // Also when asked through the other channel's path or in another case: the limit is per target.
    envelope(await get(`/api/auth/getRegisterVerificationCode?email=${a.email.toUpperCase()}`), 429)
    expect(await t.outbox(a.email)).toHaveLength(1)

    await ageCodes(t.db, a.email, 61)
    const second = await codeFor('email', a.email)
    if (second !== first) {
      envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: first }), 422)
    }
    envelope(await post('/api/auth/register/email', { user_name: a.user_name, email: a.email, password: a.password, verificationCode: second }), 201)
  })

  it('at most 10 codes per target a day → 429, the 24 h window rolling', async () => {
    const phone = uniquePhone()
    for (let i = 0; i < 10; i++) {
      await codeFor('phone', phone)
      await ageCodes(t.db, phone, 61)
    }
    const res = await get(`/api/auth/getPhoneRegisterVerificationCode?phone=${phone}`)
    envelope(res, 429, 'auth.codeDailyLimit')
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    expect(await t.outbox(phone)).toHaveLength(10)
    // A day later the oldest ones no longer count.
    await ageCodes(t.db, phone, 24 * 3600 - 600)
    await codeFor('phone', phone)
  })

  it('at most 20 code sends per IP an hour', async () => {
    const ip = freshIp()
    for (let i = 0; i < 20; i++) await codeFor('phone', uniquePhone(), undefined, { remoteAddress: ip })
    const phone = uniquePhone()
    envelope(await get(`/api/auth/getPhoneRegisterVerificationCode?phone=${phone}`, { remoteAddress: ip }), 429, 'errors.rateLimited')
    expect(await t.outbox(phone)).toHaveLength(0)
    await codeFor('phone', phone)
  })

  it('two concurrent sign-ups with one user name: exactly one succeeds', async () => {
    const name = uniqueName('race')
    const a = newAccount()
    const b = newAccount()
    const [codeA, codeB] = [await codeFor('email', a.email), await codeFor('email', b.email)]
    const results = await Promise.all([
      post('/api/auth/register/email', { user_name: name, email: a.email, password: a.password, verificationCode: codeA }),
      post('/api/auth/register/email', { user_name: name.toUpperCase(), email: b.email, password: b.password, verificationCode: codeB }),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409])
    for (const r of results) expect((r.json() as Body).code).toBe(r.statusCode)
    expect(await countUsers(sql`lower(${users.userName}) = ${name.toLowerCase()}`)).toBe(1)
    // The loser's code was not spent: its transaction rolled back.
    const loser = results[0]!.statusCode === 409 ? a : b
    const loserCode = loser === a ? codeA : codeB
    envelope(await post('/api/auth/register/email', { user_name: loser.user_name, email: loser.email, password: loser.password, verificationCode: loserCode }), 201)
  })
})

describe('forgot password', () => {
  it('an unknown account gets the same answer as a known one, and nothing is sent', async () => {
    const u = await createUser(t.db)
    const known = await get(`/api/auth/getForgotPasswordrVerificationCode?email=${u.email}`)
    const unknownEmail = uniqueEmail(uniqueName('ghost'))
    const unknown = await get(`/api/auth/getForgotPasswordrVerificationCode?email=${unknownEmail}`)
    expect(unknown.statusCode).toBe(known.statusCode)
    expect(unknown.json()).toEqual(known.json())
    expect(known.json()).toEqual({ code: 200, msg: 'auth.codeSent', data: { resendAfter: 60, delivery: 'outbox' } })
    expect(await t.outbox(unknownEmail)).toHaveLength(0)
    expect(await t.outbox(u.email!)).toHaveLength(1)
    // Asking again within 60 s is throttled alike, so timing of the answers tells nothing either.
    const knownAgain = await get(`/api/auth/getForgotPasswordrVerificationCode?email=${u.email}`)
    const unknownAgain = await get(`/api/auth/getForgotPasswordrVerificationCode?email=${unknownEmail}`)
    expect(knownAgain.statusCode).toBe(429)
    expect(unknownAgain.statusCode).toBe(429)
    expect(unknownAgain.json().msg).toBe(knownAgain.json().msg)
    expect(await t.outbox(unknownEmail)).toHaveLength(0)

    const ghostPhone = uniquePhone()
    envelope(await get(`/api/auth/getForgotPasswordrVerificationCode?phone=${ghostPhone}`), 200, 'auth.codeSent')
    expect(await t.outbox(ghostPhone)).toHaveLength(0)
    // Resetting an unknown account fails like a wrong code.
    envelope(await post('/api/auth/forgotPassword', { email: unknownEmail, verificationCode: '123456', password: 'New@pass1' }), 422, 'validation.failed')
  })

  it('resets the password by email, revoking every old token', async () => {
    const u = await createUser(t.db)
    const t1 = await t.login(u.userName, u.password)
    const t2 = await t.login(u.email!, u.password)
    const code = await codeFor('email', u.email!, '/api/auth/getForgotPasswordrVerificationCode')
    expect((await t.outbox(u.email!))[0]!.purpose).toBe('forgot')
    envelope(await post('/api/auth/forgotPassword', { email: u.email, verificationCode: code, password: 'New@pass1' }), 200, 'auth.passwordReset')
    envelope(await userInfo(t1), 401)
    envelope(await userInfo(t2), 401)
    envelope(await post('/api/auth/login', { username: u.userName, password: u.password }), 401)
    await t.login(u.userName, 'New@pass1')
    // Single use.
    envelope(await post('/api/auth/forgotPassword', { email: u.email, verificationCode: code, password: 'Other@pass2' }), 422)
  })

  it('resets the password by phone; a wrong code changes nothing', async () => {
    const u = await createUser(t.db, { phone: uniquePhone() })
    const code = await codeFor('phone', u.phone!, '/api/auth/getForgotPasswordrVerificationCode')
    const before = await dbFingerprint(t.db)
    envelope(await post('/api/auth/forgotPassword', { phone: u.phone, verificationCode: code === '111111' ? '111112' : '111111', password: 'New@pass1' }), 422)
    const after = await dbFingerprint(t.db)
    expect({ ...after, verification_codes: '' }).toEqual({ ...before, verification_codes: '' }) // only the attempt count moved
    envelope(await post('/api/auth/forgotPassword', { phone: u.phone, verificationCode: code, password: 'New@pass1' }), 200)
    await t.login(u.phone!, 'New@pass1')
  })

  it("a code for one's own phone cannot reset another account named by email", async () => {
    const victim = await createUser(t.db)
    const attacker = await createUser(t.db, { phone: uniquePhone() })
    const code = await codeFor('phone', attacker.phone!, '/api/auth/getForgotPasswordrVerificationCode')
    const res = await post('/api/auth/forgotPassword', { email: victim.email, phone: attacker.phone, verificationCode: code, password: 'Hacked@123' })
    expect(res.statusCode).not.toBe(500)
    const [v] = await t.db.select().from(users).where(eq(users.id, victim.id))
    expect(await verifyPassword(v!.passwordHash!, 'Hacked@123')).toBe(false)
    await t.login(victim.userName, victim.password)
  })

  it('a forgot code is only sent to the account named by the address it goes to', async () => {
    const known = await createUser(t.db)
    const stranger = uniquePhone()
    await get(`/api/auth/getForgotPasswordrVerificationCode?email=${known.email}&phone=${stranger}`)
    expect(await t.outbox(stranger)).toHaveLength(0)
  })
})

describe('login rate limits', () => {
  it('per account: after 5 failures the account is locked (429 with retry-after), even for the right password', async () => {
    const u = await createUser(t.db)
    for (let i = 0; i < 5; i++) envelope(await post('/api/auth/login', { username: u.userName, password: `Wrong@${i}` }), 401)
    const res = await post('/api/auth/login', { username: u.userName, password: u.password })
    const body = envelope<{ retryAfter: number }>(res, 429, 'auth.loginLocked')
    const retry = Number(res.headers['retry-after'])
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(15 * 60)
    expect(body.data.retryAfter).toBe(retry)
    // The same name in another case is the same account.
    envelope(await post('/api/auth/login', { username: u.userName.toUpperCase(), password: u.password }), 429)
    // Others are not affected.
    await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    expect(await t.db.select().from(authTokens).where(eq(authTokens.userId, u.id))).toHaveLength(0)
  })

  it('per account: a successful login clears the failures', async () => {
    const u = await createUser(t.db)
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) envelope(await post('/api/auth/login', { username: u.userName, password: 'Wrong@123' }), 401)
      envelope(await post('/api/auth/login', { username: u.userName, password: u.password }), 200)
    }
  })

  it('per account: its user name, email and phone share one budget of 5 tries', async () => {
    const u = await createUser(t.db, { phone: uniquePhone() })
    for (const username of [u.userName, u.email!, u.phone!, u.email!.toUpperCase(), ` ${u.phone!} `]) {
      envelope(await post('/api/auth/login', { username, password: 'Wrong@123' }), 401, 'auth.badCredentials')
    }
    for (const username of [u.userName, u.email!, u.phone!]) {
      const res = await post('/api/auth/login', { username, password: u.password })
      const body = envelope<{ retryAfter: number }>(res, 429, 'auth.loginLocked')
      expect(body.data.retryAfter).toBeGreaterThan(0)
      expect(body.data.retryAfter).toBeLessThanOrEqual(15 * 60)
    }
    expect(await t.db.select().from(authTokens).where(eq(authTokens.userId, u.id))).toHaveLength(0)
  })

  it('per account: a name of no account is counted by the text typed, and locks no real account', async () => {
    const ghost = uniqueName('ghost')
    for (let i = 0; i < 5; i++) envelope(await post('/api/auth/login', { username: ghost, password: 'Wrong@123' }), 401)
    envelope(await post('/api/auth/login', { username: ghost.toUpperCase(), password: 'Wrong@123' }), 429, 'auth.loginLocked')
    await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  })

  it('per IP: 30 failures from one address (people behind one NAT mistyping) still let a correct password in', async () => {
    const ip = freshIp()
    for (let i = 0; i < 30; i++) {
      envelope(await post('/api/auth/login', { username: `nobody_${i}`, password: 'Wrong@123' }, { remoteAddress: ip }), 401)
    }
    envelope(await post('/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD }, { remoteAddress: ip }), 200, 'auth.welcome')
  })
})

describe('login throttling windows (the limiter\'s clock moved, not waited for)', () => {
  // The real windows (15 minutes) with fewer points; the limiter keeps its windows on the process clock
  // (Date.now and a timer that ends each key), which these tests move forward instead of sleeping.
  const ACCOUNT = { points: 3, duration: 15 * 60 }
  const IP = { points: 6, duration: 15 * 60 }
  let s: TestApp
  beforeAll(async () => {
    s = await buildTestApp({ limits: await createRateLimits(undefined, { loginAccount: ACCOUNT, loginIp: IP }) })
  })
  afterAll(async () => {
    await s?.close()
  })
  // Only the clock and timers are moved; everything else runs in real time meanwhile (shouldAdvanceTime).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  const login = (username: string, password: string, ip = freshIp()) =>
    s.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip })
  /** Moves the clock to just before `seconds` from now, then past it. */
  const waitOut = async (seconds: number, check: () => Promise<void>) => {
    vi.advanceTimersByTime(seconds * 1000 - 3000)
    await check()
    vi.advanceTimersByTime(3000 + 200)
  }

  it('a locked account is told when to retry, and its owner gets in from anywhere once that has passed', async () => {
    const u = await createUser(s.db)
    for (let i = 0; i < ACCOUNT.points; i++) envelope(await login(u.userName, 'Wrong@123'), 401)
    const res = await login(u.userName, u.password)
    const { data } = envelope<{ retryAfter: number }>(res, 429, 'auth.loginLocked')
    expect(data.retryAfter).toBeGreaterThan(0)
    expect(data.retryAfter).toBeLessThanOrEqual(ACCOUNT.duration)
    expect(Number(res.headers['retry-after'])).toBe(data.retryAfter)
    // Refused tries while locked do not extend the lock.
    envelope(await login(u.email!, 'Wrong@123'), 429)
    // Still locked just before the time it gave; in once it has passed.
    await waitOut(data.retryAfter, async () => {
      envelope(await login(u.email!, u.password), 429, 'auth.loginLocked')
    })
    envelope(await login(u.email!, u.password), 200, 'auth.welcome')
  })

  it('per IP: below the hard cap correct passwords get in; at it the address waits for the rest of the window only', async () => {
    const [a, b] = [await createUser(s.db), await createUser(s.db)]
    const ip = freshIp()
    for (let i = 0; i < IP.points - 1; i++) envelope(await login(uniqueName('nat'), 'Wrong@123', ip), 401)
    envelope(await login(a.userName, a.password, ip), 200)
    envelope(await login(uniqueName('nat'), 'Wrong@123', ip), 401)
    const res = await login(b.userName, b.password, ip)
    const { data } = envelope<{ retryAfter: number }>(res, 429, 'auth.loginLocked')
    expect(data.retryAfter).toBeLessThanOrEqual(IP.duration)
    envelope(await login(b.userName, b.password), 200) // from elsewhere
    await waitOut(data.retryAfter, async () => {
      envelope(await login(b.userName, b.password, ip), 429, 'auth.loginLocked')
    })
    envelope(await login(b.userName, b.password, ip), 200)
  })
})

describe('bad input on every /api/auth endpoint', () => {
  const str = (o: { required?: boolean; freeText?: boolean } = {}) => ({ type: 'string' as const, ...o })
  const reg = { user_name: 'fresh_name', password: 'Abc@123x', verificationCode: '123456' }
  const endpoints: (EndpointSpec & { auth?: boolean })[] = [
    {
      method: 'POST',
      url: '/api/auth/login',
      body: { fields: { username: str({ required: true, freeText: true }), password: str({ required: true, freeText: true }) }, valid: { username: 'nobody', password: 'x' } },
    },
    { method: 'POST', url: '/api/auth/logout' },
    {
      method: 'POST',
      url: '/api/auth/register/email',
      body: {
        fields: { user_name: str({ required: true }), password: str({ required: true }), verificationCode: str({ required: true }), email: str({ required: true }) },
        valid: { ...reg, email: 'fresh@example.com' },
      },
    },
    {
      method: 'POST',
      url: '/api/auth/register/phone',
      body: {
        fields: { user_name: str({ required: true }), password: str({ required: true }), verificationCode: str({ required: true }), phone: str({ required: true }) },
        valid: { ...reg, phone: '13700000001' },
      },
    },
    {
      method: 'POST',
      url: '/api/auth/forgotPassword',
      body: {
        fields: { email: str(), phone: str(), verificationCode: str({ required: true }), password: str({ required: true }) },
        valid: { email: DEMO_SELLER.email, verificationCode: '123456', password: 'Abc@123x' },
      },
    },
    ...(
      [
        ['/api/auth/getRegisterVerificationCode', 'email', 'fresh1@example.com', false],
        ['/api/auth/getPhoneRegisterVerificationCode', 'phone', '13700000002', false],
        ['/api/auth/getForgotPasswordrVerificationCode', 'email', DEMO_SELLER.email, false],
        ['/api/auth/getEmailVerificationCode', 'email', 'fresh2@example.com', true],
        ['/api/auth/getPhoneVerificationCode', 'phone', '13700000003', true],
      ] as const
    ).map(([url, field, value, auth]) => ({ method: 'GET' as const, url, auth, query: { fields: { [field]: str() }, valid: { [field]: value } } })),
  ]

  let token: string
  beforeAll(async () => {
    token = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  })

  it.each(endpoints.map((e) => [`${e.method} ${e.url}`, e] as const))('%s: 4xx with fieldErrors, never 500, nothing changed', async (_name, ep) => {
    const headers = ep.auth ? bearer(token) : {}
    const cases = badInputs({ ...ep, headers })
    expect(cases.length).toBeGreaterThan(ep.method === 'POST' ? 4 : 1)
    const before = await dbFingerprint(t.db)
    for (const c of cases) expectRejected(await call(c.request), c)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('a code GET without an address → 422', async () => {
    for (const url of ['/api/auth/getRegisterVerificationCode', '/api/auth/getPhoneRegisterVerificationCode', '/api/auth/getForgotPasswordrVerificationCode']) {
      const body = envelope<{ fieldErrors: object }>(await get(url), 422, 'validation.failed')
      expect(Object.keys(body.data.fieldErrors).length).toBeGreaterThan(0)
    }
  })

  it('a NUL byte in a login name is a 400, not a 500', async () => {
    const before = await dbFingerprint(t.db)
    const res = await post('/api/auth/login', { username: 'adm\u0000in', password: ADMIN_PASSWORD })
    expectRejected(res, { name: 'NUL', request: {} })
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('unknown routes answer the 404 envelope', async () => {
    envelope(await get('/api/auth/nope'), 404, 'errors.notFound')
    envelope(await get('/api/auth/login'), 404, 'errors.notFound')
  })
})
