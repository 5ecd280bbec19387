import { and, eq, isNull } from 'drizzle-orm'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MenuItem } from '#contract/menu.ts'
import { authTokens, loginRecords, users, verificationCodes } from '../../db/schema/index.ts'
import { verifyPassword } from '../credentials/passwords.ts'
import { HTML_PAYLOAD, SQL_PAYLOAD, type EndpointSpec, badInputs, expectRejected } from '../../../test/bad-input.ts'
import {
  ADMIN_PASSWORD,
  DEMO_BUYER,
  DEMO_SELLER,
  type TestApp,
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
let admin: string
let adminId: number
beforeAll(async () => {
  t = await buildTestApp()
  admin = await t.login('admin', ADMIN_PASSWORD)
  adminId = (await t.db.select().from(users).where(eq(users.userName, 'admin')))[0]!.id
})
afterAll(async () => {
  await t?.close()
})

type Body<T = unknown> = { code: number; msg: string; data: T }
const call = (o: InjectOptions) => t.app.inject({ remoteAddress: freshIp(), ...o })
const post = (url: string, token: string | null, payload?: object) => call({ method: 'POST', url, payload, headers: token ? bearer(token) : {} })
const get = (url: string, token: string | null) => call({ method: 'GET', url, headers: token ? bearer(token) : {} })

function envelope<T = unknown>(res: LightMyRequestResponse, status: number, msg?: string): Body<T> {
  const body = res.json() as Body<T>
  expect(res.statusCode, res.body).toBe(status)
  expect(body.code).toBe(status)
  expect(typeof body.msg).toBe('string')
  if (msg) expect(body.msg).toBe(msg)
  return body
}

/** A fresh account and a token for it. */
async function signedIn(fields: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, fields)
  return { user, token: await t.login(user.userName, user.password) }
}
const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!
const me = async (token: string) => envelope<Record<string, unknown>>(await get('/api/users/userInfo', token), 200).data

async function bindCode(token: string, kind: 'email' | 'phone', value: string) {
  const url = kind === 'email' ? '/api/auth/getEmailVerificationCode' : '/api/auth/getPhoneVerificationCode'
  envelope(await get(`${url}?${kind}=${encodeURIComponent(value)}`, token), 200, 'auth.codeSent')
  const [sent] = await t.outbox(kind === 'email' ? value.toLowerCase() : value)
  expect(sent).toMatchObject({ purpose: 'bind' })
  return sent!.code
}

describe('POST /api/users/update (own name and profile)', () => {
  it('saves name and profile and answers the user', async () => {
    const { user, token } = await signedIn()
    const name = uniqueName('ren')
    const body = envelope<Record<string, unknown>>(await post('/api/users/update', token, { user_name: name, profile: '你好 hello' }), 200, 'saved')
    expect(body.data).toMatchObject({ id: user.id, user_name: name, profile: '你好 hello' })
    expect(body.data).not.toHaveProperty('passwordHash')
    expect(await userRow(user.id)).toMatchObject({ userName: name, profile: '你好 hello' })
  })
  it('keeps SQL and HTML in a profile as plain text and touches no one else', async () => {
    const { user, token } = await signedIn()
    const other = await createUser(t.db)
    for (const profile of [SQL_PAYLOAD, HTML_PAYLOAD, "'; DROP TABLE users; --"]) {
      envelope(await post('/api/users/update', token, { user_name: user.userName, profile }), 200)
      expect((await userRow(user.id)).profile).toBe(profile)
    }
    expect(await userRow(other.id)).toMatchObject({ profile: '', userName: other.userName })
  })
  it('a name another account has (any case) → 409; a 201-character profile → 422; nothing saved', async () => {
    const { user, token } = await signedIn()
    const before = await dbFingerprint(t.db)
    const taken = envelope<{ fieldErrors: object }>(await post('/api/users/update', token, { user_name: DEMO_SELLER.userName.toUpperCase(), profile: 'x' }), 409)
    expect(taken.data.fieldErrors).toEqual({ user_name: ['auth.userNameTaken'] })
    const long = envelope<{ fieldErrors: Record<string, string[]> }>(await post('/api/users/update', token, { user_name: user.userName, profile: 'x'.repeat(201) }), 422)
    expect(long.data.fieldErrors.profile).toEqual(['validation.profileMax'])
    expect(await dbFingerprint(t.db)).toEqual(before)
    // One's own name in another case is fine.
    envelope(await post('/api/users/update', token, { user_name: user.userName.toUpperCase(), profile: '' }), 200)
  })
  it('a NUL byte in the profile is a 400, not a 500, and saves nothing', async () => {
    const { user, token } = await signedIn()
    const before = await dbFingerprint(t.db)
    expectRejected(await post('/api/users/update', token, { user_name: user.userName, profile: 'a\u0000b' }), { name: 'NUL', request: {} })
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('POST /api/users/updatePassword', () => {
  it('a wrong old password → 422 and nothing changes', async () => {
    const { user, token } = await signedIn()
    const before = await dbFingerprint(t.db)
    const body = envelope<{ fieldErrors: object }>(await post('/api/users/updatePassword', token, { oldPassword: 'Wrong@123', newPassword: 'New@pass1' }), 422)
    expect(body.data.fieldErrors).toEqual({ oldPassword: ['auth.oldPasswordWrong'] })
    const weak = envelope<{ fieldErrors: object }>(await post('/api/users/updatePassword', token, { oldPassword: user.password, newPassword: 'weak' }), 422)
    expect(weak.data.fieldErrors).toHaveProperty('newPassword')
    expect(await dbFingerprint(t.db)).toEqual(before)
    await me(token)
  })
  it('revokes every old token and answers a working new one', async () => {
    const { user, token } = await signedIn()
    const other = await t.login(user.email!, user.password)
    const body = envelope<{ token: string }>(await post('/api/users/updatePassword', token, { oldPassword: user.password, newPassword: 'New@pass1' }), 200, 'auth.passwordChanged')
    expect(body.data.token).not.toBe(token)
    envelope(await get('/api/users/userInfo', token), 401)
    envelope(await get('/api/users/userInfo', other), 401)
    expect((await me(body.data.token)).id).toBe(user.id)
    envelope(await call({ method: 'POST', url: '/api/auth/login', payload: { username: user.userName, password: user.password } }), 401)
    await t.login(user.userName, 'New@pass1')
    expect(await verifyPassword((await userRow(user.id)).passwordHash!, 'New@pass1')).toBe(true)
  })
})

describe('binding an email or a phone (bind codes)', () => {
  it('updateEmail with a code sent to the new address', async () => {
    const { user, token } = await signedIn()
    const email = uniqueEmail(uniqueName('new'))
    const code = await bindCode(token, 'email', email)
    const [row] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, email))
    expect(row).toMatchObject({ purpose: 'bind', userId: user.id })
    const body = envelope<Record<string, unknown>>(await post('/api/users/updateEmail', token, { email, verificationCode: code }), 200, 'saved')
    expect(body.data).toMatchObject({ email })
    expect((await userRow(user.id)).email).toBe(email)
    await t.login(email, user.password)
  })
  it('updatePhone binds the security phone', async () => {
    const { user, token } = await signedIn()
    const phone = uniquePhone()
    const code = await bindCode(token, 'phone', phone)
    envelope(await post('/api/users/updatePhone', token, { phone, verificationCode: code }), 200)
    expect((await userRow(user.id)).phone).toBe(phone)
    await t.login(phone, user.password)
  })
  it("another user's code fails (422), and the owner can still use it", async () => {
    const owner = await signedIn()
    const thief = await signedIn()
    const phone = uniquePhone()
    const code = await bindCode(owner.token, 'phone', phone)
    const body = envelope<{ fieldErrors: object }>(await post('/api/users/updatePhone', thief.token, { phone, verificationCode: code }), 422)
    expect(body.data.fieldErrors).toEqual({ verificationCode: ['auth.codeInvalid'] })
    expect((await userRow(thief.user.id)).phone).toBeNull()
    envelope(await post('/api/users/updatePhone', owner.token, { phone, verificationCode: code }), 200)
    expect((await userRow(owner.user.id)).phone).toBe(phone)
  })
  it('a sign-up code for the address does not bind it', async () => {
    const { user, token } = await signedIn()
    const email = uniqueEmail(uniqueName('reg'))
    envelope(await get(`/api/auth/getRegisterVerificationCode?email=${email}`, null), 200)
    const [sent] = await t.outbox(email)
    envelope(await post('/api/users/updateEmail', token, { email, verificationCode: sent!.code }), 422)
    expect((await userRow(user.id)).email).toBe(user.email)
  })
  it('a wrong code → 422; a code is single-use', async () => {
    const { user, token } = await signedIn()
    const email = uniqueEmail(uniqueName('one'))
    const code = await bindCode(token, 'email', email)
    envelope(await post('/api/users/updateEmail', token, { email, verificationCode: code === '123456' ? '654321' : '123456' }), 422)
    envelope(await post('/api/users/updateEmail', token, { email, verificationCode: code }), 200)
    // Back to the old address with the same code: spent.
    await t.db.update(users).set({ email: user.email }).where(eq(users.id, user.id))
    envelope(await post('/api/users/updateEmail', token, { email, verificationCode: code }), 422)
  })
  it('an address another account has gets no code (409), nor can it be bound if taken meanwhile', async () => {
    const { user, token } = await signedIn()
    envelope(await get(`/api/auth/getEmailVerificationCode?email=${DEMO_BUYER.email}`, token), 409, 'auth.emailTaken')
    envelope(await get(`/api/auth/getPhoneVerificationCode?phone=${DEMO_SELLER.phone}`, token), 409, 'auth.phoneTaken')
    const phone = uniquePhone()
    const code = await bindCode(token, 'phone', phone)
    await createUser(t.db, { phone })
    envelope(await post('/api/users/updatePhone', token, { phone, verificationCode: code }), 409, 'auth.phoneTaken')
    expect((await userRow(user.id)).phone).toBeNull()
  })
  it('bind codes need a login', async () => {
    envelope(await get(`/api/auth/getEmailVerificationCode?email=${uniqueEmail()}`, null), 401)
    envelope(await get(`/api/auth/getPhoneVerificationCode?phone=${uniquePhone()}`, null), 401)
    envelope(await post('/api/users/updateEmail', null, { email: 'a@b.cc', verificationCode: '123456' }), 401)
  })
})

describe('guessing attempts', () => {
  it("another account's wrong tries cannot void my bind code", async () => {
    const mine = await signedIn()
    const other = await signedIn()
    const email = uniqueEmail(uniqueName('bind'))
    const code = await bindCode(mine.token, 'email', email)
    const wrong = code === '123456' ? '654321' : '123456'
    for (let i = 0; i < 6; i++) envelope(await post('/api/users/updateEmail', other.token, { email, verificationCode: wrong }), 422)
    envelope(await post('/api/users/updateEmail', mine.token, { email, verificationCode: code }), 200, 'saved')
  })

  it('wrong current passwords are limited like failed logins (5, then 429 even for the right one)', async () => {
    const { user, token } = await signedIn()
    for (let i = 0; i < 5; i++) envelope(await post('/api/users/updatePassword', token, { oldPassword: 'Wrong@123', newPassword: 'New@pass1' }), 422)
    const locked = await post('/api/users/updatePassword', token, { oldPassword: user.password, newPassword: 'New@pass1' })
    envelope(locked, 429, 'auth.loginLocked')
    expect(await verifyPassword((await userRow(user.id)).passwordHash!, user.password)).toBe(true)
  })
})

describe('Alipay info and terms', () => {
  it('updateAlipayInfo then getAlipayInfo', async () => {
    const { user, token } = await signedIn()
    expect(envelope(await get('/api/users/getAlipayInfo', token), 200).data).toEqual({ alipayRealName: null, alipayAccount: null })
    const saved = envelope(await post('/api/users/updateAlipayInfo', token, { alipayRealName: ' 李四 ', alipayAccount: 'lisi@example.com' }), 200, 'saved')
    expect(saved.data).toEqual({ alipayRealName: '李四', alipayAccount: 'lisi@example.com' })
    expect(envelope(await get('/api/users/getAlipayInfo', token), 200).data).toEqual({ alipayRealName: '李四', alipayAccount: 'lisi@example.com' })
    expect(await userRow(user.id)).toMatchObject({ alipayRealName: '李四', alipayAccount: 'lisi@example.com' })
    envelope(await get('/api/users/getAlipayInfo', null), 401)
  })
  it('an account that is neither phone nor email, or a name over 32 characters → 422', async () => {
    const { token } = await signedIn()
    const a = envelope<{ fieldErrors: object }>(await post('/api/users/updateAlipayInfo', token, { alipayRealName: '李四', alipayAccount: 'lisi' }), 422)
    expect(a.data.fieldErrors).toEqual({ alipayAccount: ['validation.alipayAccountFormat'] })
    const b = envelope<{ fieldErrors: object }>(await post('/api/users/updateAlipayInfo', token, { alipayRealName: '李'.repeat(33), alipayAccount: '13800138000' }), 422)
    expect(b.data.fieldErrors).toEqual({ alipayRealName: ['validation.tooLong'] })
  })
  it('agreeToTerms records the first agreement and keeps it', async () => {
    const { user, token } = await signedIn()
    const first = envelope<{ terms_agreed_at: string }>(await post('/api/users/agreeToTerms', token), 200).data.terms_agreed_at
    expect(Date.now() - new Date(first).getTime()).toBeLessThan(60_000)
    await new Promise((r) => setTimeout(r, 20))
    const second = envelope<{ terms_agreed_at: string }>(await post('/api/users/agreeToTerms', token), 200).data.terms_agreed_at
    expect(second).toBe(first)
    expect((await userRow(user.id)).termsAgreedAt!.toISOString()).toBe(first)
    envelope(await post('/api/users/agreeToTerms', null), 401)
  })
})

describe('admin: users', () => {
  it('list pages and filters, never showing password hashes', async () => {
    const tag = uniqueName('lst')
    for (let i = 0; i < 3; i++) await createUser(t.db, { userName: `${tag}_${i}` })
    const res = await get(`/api/users/list?keyword=${tag}&pageSize=2&pageNum=1`, admin)
    const page = envelope<{ list: Record<string, unknown>[]; total: number; pageNum: number; pageSize: number }>(res, 200).data
    expect(page).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 })
    expect(page.list.map((u) => u.user_name)).toEqual([`${tag}_2`, `${tag}_1`]) // newest first
    expect(res.body).not.toMatch(/argon2|passwordHash|password_hash/)
    const second = envelope<{ list: { user_name: string }[] }>(await get(`/api/users/list?keyword=${tag}&pageSize=2&pageNum=2`, admin), 200).data
    expect(second.list.map((u) => u.user_name)).toEqual([`${tag}_0`])

    const admins = envelope<{ list: { role: string }[]; total: number }>(await get('/api/users/list?role=admin', admin), 200).data
    expect(admins.total).toBeGreaterThanOrEqual(1)
    expect(admins.list.every((u) => u.role === 'admin')).toBe(true)
    const byPhone = envelope<{ list: { user_name: string }[] }>(await get(`/api/users/list?keyword=${DEMO_SELLER.phone}`, admin), 200).data
    expect(byPhone.list.map((u) => u.user_name)).toEqual([DEMO_SELLER.userName])
  })
  it('keywords are text, not SQL or LIKE patterns', async () => {
    // `dem_` would match every demo account if `_` were a LIKE wildcard.
    for (const keyword of [SQL_PAYLOAD, '%', 'dem_', '\\', '%_%']) {
      const page = envelope<{ list: unknown[]; total: number }>(await get(`/api/users/list?keyword=${encodeURIComponent(keyword)}`, admin), 200).data
      expect(page.total, keyword).toBe(0)
    }
  })
  it('filters banned users', async () => {
    const { user } = await signedIn()
    envelope(await post('/api/users/admin/update', admin, { id: user.id, is_banned: 1 }), 200)
    const banned = envelope<{ list: { id: number; is_banned: number }[] }>(await get('/api/users/list?is_banned=1&pageSize=100', admin), 200).data
    expect(banned.list.map((u) => u.id)).toContain(user.id)
    expect(banned.list.every((u) => u.is_banned === 1)).toBe(true)
  })
  it('getUserById: the user, or 404', async () => {
    const { user } = await signedIn()
    expect(envelope(await get(`/api/users/admin/getUserById?id=${user.id}`, admin), 200).data).toMatchObject({ id: user.id, user_name: user.userName })
    envelope(await get('/api/users/admin/getUserById?id=999999', admin), 404, 'errors.notFound')
    envelope(await get('/api/users/admin/getUserById?id=99999999999', admin), 422) // beyond an integer id: invalid, not a 500
  })
  it('admin/update changes name, profile and role', async () => {
    const { user, token } = await signedIn()
    const name = uniqueName('adm')
    const body = envelope(await post('/api/users/admin/update', admin, { id: user.id, user_name: name, profile: 'set by admin', role: 'admin' }), 200, 'saved')
    expect(body.data).toMatchObject({ id: user.id, user_name: name, profile: 'set by admin', role: 'admin' })
    expect(await userRow(user.id)).toMatchObject({ userName: name, role: 'admin' })
    // The promoted user is an admin from the next request on.
    envelope(await get('/api/users/list', token), 200)
    envelope(await post('/api/users/admin/update', admin, { id: user.id, user_name: DEMO_BUYER.userName }), 409, 'auth.userNameTaken')
    envelope(await post('/api/users/admin/update', admin, { id: 999999, profile: 'x' }), 404)
  })
  it('banning revokes the tokens; the user cannot log in until unbanned', async () => {
    const { user, token } = await signedIn()
    envelope(await post('/api/users/admin/update', admin, { id: user.id, is_banned: 1 }), 200)
    expect(await userRow(user.id)).toMatchObject({ isBanned: 1 })
    expect(await t.db.select().from(authTokens).where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt)))).toHaveLength(0)
    envelope(await get('/api/users/userInfo', token), 401)
    envelope(await call({ method: 'POST', url: '/api/auth/login', payload: { username: user.userName, password: user.password } }), 403, 'auth.banned')
    envelope(await post('/api/users/admin/update', admin, { id: user.id, is_banned: 0 }), 200)
    await t.login(user.userName, user.password)
  })
  it('disabling revokes the tokens as well', async () => {
    const { user, token } = await signedIn()
    envelope(await post('/api/users/admin/update', admin, { id: user.id, status: 'disabled' }), 200)
    envelope(await get('/api/users/userInfo', token), 401)
  })
  it('an admin cannot ban, disable or demote themselves (409)', async () => {
    const before = await dbFingerprint(t.db)
    for (const change of [{ is_banned: 1 }, { status: 'disabled' }, { role: 'user' }]) {
      envelope(await post('/api/users/admin/update', admin, { id: adminId, ...change }), 409, 'users.cannotDemoteSelf')
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    envelope(await get('/api/users/list', admin), 200)
  })
  it('null, booleans and arrays are not 0 or 1 (a ban flag must be a number)', async () => {
    const { user } = await signedIn()
    envelope(await post('/api/users/admin/update', admin, { id: user.id, is_banned: 1 }), 200)
    for (const value of [null, false, true, [], '', [1]]) {
      envelope(await post('/api/users/admin/update', admin, { id: user.id, is_banned: value }), 422)
    }
    expect((await userRow(user.id)).isBanned).toBe(1)
    // Digits, as a form would send them, are fine.
    envelope(await post('/api/users/admin/update', admin, { id: String(user.id), is_banned: '0' }), 200)
    expect((await userRow(user.id)).isBanned).toBe(0)
  })
  it.each([
    ['GET', '/api/users/list'],
    ['GET', '/api/users/admin/getUserById?id=1'],
    ['POST', '/api/users/admin/update'],
    ['GET', '/api/loginRecords/admin/list'],
  ] as const)('%s %s: 401 anonymous, 403 for a user, nothing changed', async (method, url) => {
    const { token } = await signedIn()
    const before = await dbFingerprint(t.db)
    const payload = method === 'POST' ? { id: adminId, is_banned: 1 } : undefined
    envelope(await call({ method, url, payload }), 401, 'auth.unauthorized')
    envelope(await call({ method, url, payload, headers: bearer(token) }), 403, 'auth.forbidden')
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('login records', () => {
  it('own list shows only own records; the admin list shows all', async () => {
    const { user } = await signedIn()
    const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'
    const res = await call({ method: 'POST', url: '/api/auth/login', payload: { username: user.email, password: user.password }, remoteAddress: '192.0.2.44', headers: { 'user-agent': ua } })
    const token = envelope<{ token: string }>(res, 200).data.token
    const own = envelope<{ list: Record<string, unknown>[]; total: number }>(await get('/api/loginRecords/list', token), 200).data
    expect(own.total).toBe(2)
    expect(own.list.every((r) => r.uid === user.id)).toBe(true)
    expect(own.list[0]).toMatchObject({ uid: user.id, username: user.userName, email: user.email, loginBrowser: 'Firefox 125', loginIp: '192.0.2.44' })
    expect(own.list[0]!.loginDevice).toMatch(/desktop.*Linux/)
    const all = envelope<{ list: { uid: number }[]; total: number }>(await get('/api/loginRecords/admin/list?keyword=192.0.2.44', admin), 200).data
    expect(all.list.map((r) => r.uid)).toEqual([user.id])
    const everyone = envelope<{ total: number }>(await get('/api/loginRecords/admin/list', admin), 200).data
    expect(everyone.total).toBe((await t.db.select().from(loginRecords)).length)
  })
})

describe('POST /api/user/menu', () => {
  const paths = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...paths(i.children ?? [])])
  it('admins get /system; users do not; both sorted by order', async () => {
    const { token } = await signedIn()
    const adminMenu = envelope<MenuItem[]>(await post('/api/user/menu', admin), 200).data
    const userMenu = envelope<MenuItem[]>(await post('/api/user/menu', token), 200).data
    expect(paths(adminMenu)).toContain('/system/user-manage')
    expect(paths(userMenu).filter((p) => p.startsWith('/system'))).toEqual([])
    for (const menu of [adminMenu, userMenu]) {
      const orders = menu.map((i) => i.order)
      expect(orders).toEqual([...orders].sort((a, b) => a - b))
      expect(menu[0]!.path).toBe('/dashboard')
    }
    envelope(await post('/api/user/menu', null), 401)
  })
})

describe('bad input on every /api/users endpoint', () => {
  const str = (o: { required?: boolean; freeText?: boolean } = {}) => ({ type: 'string' as const, ...o })
  const int = (o: { required?: boolean } = {}) => ({ type: 'int' as const, ...o })
  const endpoints: (EndpointSpec & { as: 'user' | 'admin' })[] = [
    { as: 'user', method: 'POST', url: '/api/users/update', body: { fields: { user_name: str({ required: true }), profile: str({ freeText: true }) }, valid: { user_name: 'bad_input_user', profile: 'p' } } },
    {
      as: 'user',
      method: 'POST',
      url: '/api/users/updatePassword',
      body: { fields: { oldPassword: str({ required: true, freeText: true }), newPassword: str({ required: true }) }, valid: { oldPassword: 'Wrong@123', newPassword: 'New@pass1' } },
    },
    { as: 'user', method: 'POST', url: '/api/users/updateEmail', body: { fields: { email: str({ required: true }), verificationCode: str({ required: true }) }, valid: { email: 'x1@example.com', verificationCode: '123456' } } },
    { as: 'user', method: 'POST', url: '/api/users/updatePhone', body: { fields: { phone: str({ required: true }), verificationCode: str({ required: true }) }, valid: { phone: '13700000009', verificationCode: '123456' } } },
    {
      as: 'user',
      method: 'POST',
      url: '/api/users/updateAlipayInfo',
      body: { fields: { alipayRealName: str({ required: true, freeText: true }), alipayAccount: str({ required: true }) }, valid: { alipayRealName: '王五', alipayAccount: '13800138000' } },
    },
    { as: 'user', method: 'POST', url: '/api/users/agreeToTerms' },
    { as: 'user', method: 'POST', url: '/api/user/menu' },
    { as: 'user', method: 'GET', url: '/api/loginRecords/list', query: { fields: { pageNum: int(), pageSize: int(), keyword: str({ freeText: true }) }, valid: {} } },
    {
      as: 'admin',
      method: 'GET',
      url: '/api/users/list',
      query: { fields: { pageNum: int(), pageSize: int(), keyword: str({ freeText: true }), role: str(), is_banned: int() }, valid: {} },
    },
    { as: 'admin', method: 'GET', url: '/api/users/admin/getUserById', query: { fields: { id: int({ required: true }) }, valid: { id: '1' } } },
    { as: 'admin', method: 'GET', url: '/api/loginRecords/admin/list', query: { fields: { pageNum: int(), pageSize: int(), keyword: str({ freeText: true }) }, valid: {} } },
    {
      as: 'admin',
      method: 'POST',
      url: '/api/users/admin/update',
      body: {
        fields: { id: int({ required: true }), user_name: str(), profile: str({ freeText: true }), role: str(), is_banned: int(), status: str() },
        valid: { id: 2, profile: 'by admin' },
      },
    },
  ]

  let user: { token: string; user: { id: number } }
  beforeAll(async () => {
    user = await signedIn()
  })

  it.each(endpoints.map((e) => [`${e.method} ${e.url}`, e] as const))('%s: 4xx with fieldErrors, never 500, nothing changed', async (_name, ep) => {
    const cases = badInputs({ ...ep, headers: bearer(ep.as === 'admin' ? admin : user.token) })
    const before = await dbFingerprint(t.db)
    for (const c of cases) expectRejected(await call(c.request), c)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('GETs that take no parameters ignore junk in the query string', async () => {
    const before = await dbFingerprint(t.db)
    const junk = `?x=${'y'.repeat(10240)}&q=${encodeURIComponent(SQL_PAYLOAD)}&h=${encodeURIComponent(HTML_PAYLOAD)}&a=1&a=2`
    for (const url of ['/api/users/userInfo', '/api/users/getAlipayInfo']) {
      const res = await get(`${url}${junk}`, user.token)
      envelope(res, 200)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('pageSize over 100 → 422', async () => {
    envelope(await get('/api/users/list?pageSize=101', admin), 422)
    envelope(await get('/api/loginRecords/list?pageSize=1000', user.token), 422)
  })

  it('NUL bytes in free text are a 400, not a 500', async () => {
    const before = await dbFingerprint(t.db)
    for (const [method, url, payload] of [
      ['GET', '/api/users/list?keyword=%00', undefined],
      ['GET', '/api/loginRecords/list?keyword=a%00', undefined],
      ['POST', '/api/users/updateAlipayInfo', { alipayRealName: 'a\u0000', alipayAccount: '13800138000' }],
      ['POST', '/api/users/admin/update', { id: user.user.id, profile: '\u0000' }],
    ] as const) {
      const res = await call({ method, url, payload, headers: bearer(url.includes('loginRecords/list') || url.includes('Alipay') ? user.token : admin) })
      expectRejected(res, { name: 'NUL', request: { method, url } })
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})
