import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users, verificationCodes } from '../db/schema/index.ts'
import { type SmtpFake, startSmtpFake } from '../../test/fakes/smtp.ts'
import { ADMIN_PASSWORD, type TestApp, bearer, buildTestApp, freshIp, uniqueEmail, uniqueName, uniquePhone } from '../../test/helpers.ts'
import { SmtpSender } from './codes.ts'

let smtp: SmtpFake
beforeAll(async () => {
  smtp = await startSmtpFake()
})
afterAll(async () => {
  await smtp?.close()
})

describe('SmtpSender through a local SMTP server', () => {
  it('delivers the code with a subject per purpose, from the configured sender', async () => {
    const sender = new SmtpSender(smtp.url, 'PayShare <no-reply@payshare.test>')
    await sender.send({ channel: 'email', to: 'alice@example.com', code: '042917', purpose: 'register' })
    const [mail] = smtp.to('alice@example.com')
    expect(mail).toBeDefined()
    expect(mail!.mailFrom).toBe('no-reply@payshare.test')
    expect(mail!.rcptTo).toEqual(['alice@example.com'])
    expect(mail!.from).toBe('PayShare <no-reply@payshare.test>')
    expect(mail!.subject).toBe('PayShare 注册验证码 / sign-up code')
    expect(mail!.text).toContain('您的验证码是 042917')
    expect(mail!.text).toContain('Your verification code is 042917')
    expect(mail!.code).toBe('042917')

    await sender.send({ channel: 'email', to: 'alice@example.com', code: '555000', purpose: 'forgot' })
    expect(smtp.to('alice@example.com')[0]).toMatchObject({ subject: 'PayShare 重置密码验证码 / password reset code', code: '555000' })
  })

  it('also with ignoreTLS in the URL', async () => {
    const sender = new SmtpSender(`${smtp.url}?ignoreTLS=true`, 'x@y.cc')
    await sender.send({ channel: 'email', to: 'bob@example.com', code: '123123', purpose: 'bind' })
    expect(smtp.to('bob@example.com')[0]).toMatchObject({ code: '123123', subject: 'PayShare 绑定验证码 / verification code', mailFrom: 'x@y.cc' })
  })

  it('rejects when the server cannot be reached', async () => {
    const down = await startSmtpFake()
    await down.close()
    await expect(new SmtpSender(down.url, 'x@y.cc').send({ channel: 'email', to: 'a@b.cc', code: '000000', purpose: 'register' })).rejects.toThrow()
  })

  it('rejects when the server refuses the recipient', async () => {
    smtp.rejectRecipient((a) => a === 'gone@example.com')
    try {
      await expect(new SmtpSender(smtp.url, 'x@y.cc').send({ channel: 'email', to: 'gone@example.com', code: '000111', purpose: 'register' })).rejects.toThrow()
      expect(smtp.to('gone@example.com')).toEqual([])
    } finally {
      smtp.rejectRecipient(null)
    }
  })
})

describe('the API sending codes by mail over SMTP', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ providers: { mail: new SmtpSender(smtp.url, 'no-reply@payshare.test') } })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('registers with the code that arrived by mail; nothing goes to the outbox', async () => {
    const name = uniqueName('mail')
    const email = uniqueEmail(name)
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/getRegisterVerificationCode?email=${email}`, remoteAddress: freshIp() })
    expect(res.json()).toEqual({ code: 200, msg: 'auth.codeSent', data: { resendAfter: 60, delivery: 'sent' } })
    const [mail] = smtp.to(email)
    expect(mail?.code).toMatch(/^\d{6}$/)
    expect(await t.outbox()).toEqual([])

    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/email',
      payload: { user_name: name, email, password: 'Abc@123x', verificationCode: mail!.code },
      remoteAddress: freshIp(),
    })
    expect(reg.statusCode, reg.body).toBe(201)
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(1)
  })

  it('a refused delivery → 502 auth.codeSendFailed, and the code is not kept (a retry is not throttled)', async () => {
    const email = uniqueEmail(uniqueName('bounce'))
    smtp.rejectRecipient((a) => a === email)
    try {
      const res = await t.app.inject({ method: 'GET', url: `/api/auth/getRegisterVerificationCode?email=${email}`, remoteAddress: freshIp() })
      expect(res.statusCode).toBe(502)
      expect(res.json()).toMatchObject({ code: 502, msg: 'auth.codeSendFailed' })
      expect(await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, email))).toEqual([])
    } finally {
      smtp.rejectRecipient(null)
    }
    const retry = await t.app.inject({ method: 'GET', url: `/api/auth/getRegisterVerificationCode?email=${email}`, remoteAddress: freshIp() })
    expect(retry.statusCode, retry.body).toBe(200)
    expect(smtp.to(email)).toHaveLength(1)
  })

  it('the dev outbox stays open while SMS still uses it, and holds no mail codes', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const phone = uniquePhone()
    await t.app.inject({ method: 'GET', url: `/api/auth/getPhoneRegisterVerificationCode?phone=${phone}`, remoteAddress: freshIp() })
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: bearer(admin) })
    expect(res.statusCode).toBe(200)
    const list = (res.json() as { data: { list: { to: string; channel: string }[] } }).data.list
    expect(list.map((m) => m.to)).toEqual([phone])
    expect(list.every((m) => m.channel === 'sms')).toBe(true)
  })

})
