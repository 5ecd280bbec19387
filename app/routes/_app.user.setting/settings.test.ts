// The settings forms, one route each (app/routes/_app.user.setting.<form>/): each action checks its own
// schema and answers its own form; the page shows that answer in the form's section.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { authApi } from '#contract/auth.ts'
import { args, post, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { action as alipay } from '../_app.user.setting.alipay/route.tsx'
import { action as password } from '../_app.user.setting.password/route.tsx'
import { action as phone } from '../_app.user.setting.phone/route.tsx'
import { action as profile } from '../_app.user.setting.profile/route.tsx'
import { action as terms } from '../_app.user.setting.terms/route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())

const USER = userFixture()

type Reply = { result: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; codeSent?: { to: string } }
const replyOf = (value: unknown) => statusOf(value).data as Reply

afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: USER })
})

describe('settings forms', () => {
  it('profile: a refused value comes back at its field, nothing is sent', async () => {
    const res = await profile(args(post('/user/setting/profile', { user_name: 'ada', profile: '长'.repeat(201) }, { cookie: await sessionCookie('tok') })))
    expect(statusOf(res).status).toBe(400)
    expect(replyOf(res).result.error?.profile).toEqual(['validation.profileMax'])
    expect(stub.count(usersApi.update)).toBe(0)
  })

  it("profile: the API's field messages land at the fields", async () => {
    stub.on(usersApi.update, { code: 422, msg: 'errors.validation', data: { fieldErrors: { user_name: ['validation.userNameTaken'] } } })
    const res = await profile(args(post('/user/setting/profile', { user_name: 'bob', profile: '' }, { cookie: await sessionCookie('tok') })))
    expect(replyOf(res).result.error?.user_name).toEqual(['validation.userNameTaken'])
  })

  it('profile: saved, back to its section', async () => {
    stub.on(usersApi.update, ({ body }) => ({ data: { ...USER, ...(body as object) } }))
    const res = statusOf(await profile(args(post('/user/setting/profile', { user_name: 'ada2', profile: 'hi' }, { cookie: await sessionCookie('tok') }))))
    expect(res.headers.get('location')).toBe('/user/setting#profile')
    expect(stub.callsTo(usersApi.update)[0]?.body).toEqual({ user_name: 'ada2', profile: 'hi' })
  })

  it('password: the confirmation must match (the one contract rule), and passwords are never sent back', async () => {
    const res = await password(args(post('/user/setting/password', { oldPassword: 'Old@pass1', newPassword: 'New@pass1', confirmPassword: 'New@pass2' }, { cookie: await sessionCookie('tok') })))
    expect(replyOf(res).result.error?.confirmPassword).toEqual(['validation.confirmMismatch'])
    expect(JSON.stringify(replyOf(res))).not.toContain('New@pass1')
    expect(stub.count(usersApi.updatePassword)).toBe(0)
  })

  it('password: changed; this session goes on with the fresh token', async () => {
    stub.on(usersApi.updatePassword, { data: { token: 'fresh' } })
    const res = statusOf(await password(args(post('/user/setting/password', { oldPassword: 'Old@pass1', newPassword: 'New@pass1', confirmPassword: 'New@pass1' }, { cookie: await sessionCookie('tok') }))))
    expect(res.headers.get('location')).toBe('/user/setting#password')
    expect(res.headers.get('set-cookie')).toContain(await sessionCookie('fresh'))
  })

  it('phone: "Send code" needs only the number and says where the code went', async () => {
    stub.on(authApi.phoneCode, { data: { resendAfter: 60, delivery: 'outbox' } })
    const res = await phone(args(post('/user/setting/phone', { phone: '13800138000', verificationCode: '', intent: 'phoneCode' }, { cookie: await sessionCookie('tok') })))
    expect(replyOf(res).codeSent?.to).toBe('13800138000')
    expect(stub.callsTo(authApi.phoneCode)[0]?.query.get('phone')).toBe('13800138000')
  })

  it('phone: binding needs the code', async () => {
    const res = await phone(args(post('/user/setting/phone', { phone: '13800138000', verificationCode: '', intent: 'phone' }, { cookie: await sessionCookie('tok') })))
    expect(replyOf(res).result.error?.verificationCode).toBeTruthy()
    expect(stub.count(usersApi.updatePhone)).toBe(0)
  })

  it('Alipay: stored, back to its section', async () => {
    stub.on(usersApi.updateAlipayInfo, { data: { alipayRealName: '张三', alipayAccount: 'a@b.cc' } })
    const res = statusOf(await alipay(args(post('/user/setting/alipay', { alipayRealName: '张三', alipayAccount: 'a@b.cc' }, { cookie: await sessionCookie('tok') }))))
    expect(res.headers.get('location')).toBe('/user/setting#alipay')
  })

  it('terms: agreed', async () => {
    stub.on(usersApi.agreeToTerms, { data: USER })
    const res = statusOf(await terms(args(post('/user/setting/terms', {}, { cookie: await sessionCookie('tok') }))))
    expect(res.headers.get('location')).toBe('/user/setting')
  })

  it('a JSON body is a 400, not a 500', async () => {
    const request = new Request('http://console.test/user/setting/profile', {
      method: 'POST',
      headers: { host: 'console.test', origin: 'http://console.test', 'content-type': 'application/json', cookie: await sessionCookie('tok') },
      body: '{"user_name":"x"}',
    })
    expect(statusOf(await settle(() => profile(args(request)))).status).toBe(400)
  })
})
