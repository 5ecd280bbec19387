import http from 'node:http'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users, verificationCodes } from '../db/schema/index.ts'
import { type AliyunSmsFake, startAliyunSmsFake } from '../../test/fakes/aliyun-sms.ts'
import { type TestApp, buildTestApp, freshIp, uniqueName, uniquePhone } from '../../test/helpers.ts'
import { AliyunSmsSender, SmsSendError } from './aliyun-sms.ts'

const ACCOUNT = { accessKeyId: 'LTAI5tFakeKeyId', accessKeySecret: 'fake-secret-0123456789', signName: 'PayShare', templateCode: 'SMS_123456789' }

let fake: AliyunSmsFake
beforeAll(async () => {
  fake = await startAliyunSmsFake(ACCOUNT)
})
afterAll(async () => {
  await fake?.close()
})

const sender = (over: Partial<typeof ACCOUNT> = {}) => new AliyunSmsSender({ ...ACCOUNT, endpoint: fake.endpoint, ...over })
const message = (to: string, code = '246810') => ({ channel: 'sms' as const, to, code, purpose: 'register' as const })

/** Sends a captured request again, optionally with changes, straight over HTTP. */
function replay(req: (typeof fake.requests)[number], change: { url?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: { Code: string } }>((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port: fake.port, method: req.method, path: change.url ?? req.url, headers: { ...req.headers, ...change.headers } },
      (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { Code: string } }))
      },
    )
    r.on('error', reject)
    r.end(req.body)
  })
}

describe('AliyunSmsSender against a signature-checking Dysms fake', () => {
  it('sends SendSms RPC-style, signed with ACS3-HMAC-SHA256, with the code as template param', async () => {
    const phone = uniquePhone()
    await sender().send(message(phone))
    expect(fake.sent.at(-1)).toMatchObject({ phoneNumbers: phone, signName: 'PayShare', templateCode: 'SMS_123456789', templateParam: { code: '246810' }, code: '246810' })
    const req = fake.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.url).toMatch(/^\/\?/)
    expect(req.headers).toMatchObject({ 'x-acs-action': 'SendSms', 'x-acs-version': '2017-05-25' })
    expect(req.headers.authorization).toMatch(/^ACS3-HMAC-SHA256 Credential=LTAI5tFakeKeyId,SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*,Signature=[0-9a-f]{64}$/)
  })

  it('a wrong access key secret is rejected (SignatureDoesNotMatch) and nothing is sent', async () => {
    const before = fake.sent.length
    const err = await sender({ accessKeySecret: 'not-the-secret' }).send(message(uniquePhone())).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as { code?: string }).code).toBe('SignatureDoesNotMatch')
    expect(fake.sent.length).toBe(before)
  })

  it('an unknown access key id is rejected', async () => {
    const err = await sender({ accessKeyId: 'LTAIunknown' }).send(message(uniquePhone())).catch((e: unknown) => e)
    expect((err as { code?: string }).code).toBe('InvalidAccessKeyId.NotFound')
  })

  it('the signature covers the query and is single-use (nonce)', async () => {
    const phone = uniquePhone()
    await sender().send(message(phone, '135790'))
    const original = fake.requests.at(-1)!
    const count = fake.sent.length
    // The same request again: the nonce was used.
    expect((await replay(original)).body.Code).toBe('SignatureNonceUsed')
    // Another phone number under the old signature, with a fresh nonce.
    const other = uniquePhone()
    const tampered = await replay(original, { url: original.url.replace(phone, other), headers: { 'x-acs-signature-nonce': 'fresh-nonce-1' } })
    expect(tampered).toMatchObject({ status: 400, body: { Code: 'SignatureDoesNotMatch' } })
    // A header left out of the signature.
    const unsigned = await replay(original, { headers: { 'x-acs-signature-nonce': 'fresh-nonce-2', 'x-acs-extra': '1' } })
    expect(unsigned.body.Code).toBe('IncompleteSignature')
    // Stale date.
    const stale = await replay(original, { headers: { 'x-acs-signature-nonce': 'fresh-nonce-3', 'x-acs-date': '2020-01-01T00:00:00Z' } })
    expect(stale.body.Code).toBe('InvalidTimeStamp.Expired')
    expect(fake.sent.length).toBe(count)
  })

  it('provider business errors (HTTP 200, Code ≠ OK) become SmsSendError', async () => {
    fake.failNext({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控Permits:1' })
    const err = await sender().send(message(uniquePhone())).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SmsSendError)
    expect(err).toMatchObject({ providerCode: 'isv.BUSINESS_LIMIT_CONTROL', message: '触发分钟级流控Permits:1' })
    const badSign = await sender({ signName: 'Other' }).send(message(uniquePhone())).catch((e: unknown) => e)
    expect(badSign).toMatchObject({ providerCode: 'isv.SMS_SIGNATURE_ILLEGAL' })
  })
})

describe('the API sending codes by Aliyun SMS', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ providers: { sms: sender() } })
  })
  afterAll(async () => {
    await t?.close()
  })
  const ask = (phone: string) => t.app.inject({ method: 'GET', url: `/api/auth/getPhoneRegisterVerificationCode?phone=${phone}`, remoteAddress: freshIp() })

  it('registers with the code the SMS carried; nothing goes to the outbox', async () => {
    const phone = uniquePhone()
    const res = await ask(phone)
    expect(res.json()).toEqual({ code: 200, msg: 'auth.codeSent', data: { resendAfter: 60, delivery: 'sent' } })
    const sms = fake.sent.filter((s) => s.phoneNumbers === phone)
    expect(sms).toHaveLength(1)
    expect(await t.outbox()).toEqual([])
    const name = uniqueName('sms')
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/phone',
      payload: { user_name: name, phone, password: 'Abc@123x', verificationCode: sms[0]!.code },
      remoteAddress: freshIp(),
    })
    expect(reg.statusCode, reg.body).toBe(201)
    expect(await t.db.select().from(users).where(eq(users.phone, phone))).toHaveLength(1)
  })

  it('a provider error → 502 auth.codeSendFailed, the code row is not kept, and a retry is not throttled', async () => {
    const phone = uniquePhone()
    fake.failNext({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发天级流控Permits:10' })
    const res = await ask(phone)
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ code: 502, msg: 'auth.codeSendFailed' })
    expect(await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone))).toEqual([])
    const retry = await ask(phone)
    expect(retry.statusCode, retry.body).toBe(200)
    expect(await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone))).toHaveLength(1)
  })

  it('a secret that no longer matches (rotated at Aliyun) → 502 as well', async () => {
    fake.rotateSecret('rotated-secret')
    try {
      const phone = uniquePhone()
      const res = await ask(phone)
      expect(res.json()).toMatchObject({ code: 502, msg: 'auth.codeSendFailed' })
      expect(await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone))).toEqual([])
      expect(fake.sent.some((s) => s.phoneNumbers === phone)).toBe(false)
      expect(fake.requests.at(-1)!.headers['x-acs-action']).toBe('SendSms') // it did reach the provider
    } finally {
      fake.rotateSecret(ACCOUNT.accessKeySecret)
    }
  })

})
