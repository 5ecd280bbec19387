import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CodeMessage, CodeSender } from '../../providers/codes.ts'
import { type EndpointSpec, badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, type TestApp, bearer, buildTestApp, dbFingerprint, freshIp, uniquePhone } from '../../../test/helpers.ts'

type Outbox = { list: { id: number; channel: string; to: string; code: string; purpose: string; created_at: string }[]; pageNum: number; pageSize: number }

/** A stand-in for a configured real provider: records what it would have delivered. */
class RecordingSender implements CodeSender {
  sent: CodeMessage[] = []
  constructor(readonly kind: 'smtp' | 'aliyun') {}
  async send(m: CodeMessage) {
    this.sent.push(m)
  }
}

function envelope<T>(res: LightMyRequestResponse, status: number, msg?: string) {
  const body = res.json() as { code: number; msg: string; data: T }
  expect(res.statusCode, res.body).toBe(status)
  expect(body.code).toBe(status)
  if (msg) expect(body.msg).toBe(msg)
  return body.data
}

describe('GET /api/dev/outbox with no real provider', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await buildTestApp()
    admin = await t.login('admin', ADMIN_PASSWORD)
  })
  afterAll(async () => {
    await t?.close()
  })
  const outbox = (token?: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/dev/outbox${query}`, headers: token ? bearer(token) : {}, remoteAddress: freshIp() })

  it('lists the codes held back, newest first, to admins', async () => {
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()]
    for (const phone of phones) {
      envelope(await t.app.inject({ method: 'GET', url: `/api/auth/getPhoneRegisterVerificationCode?phone=${phone}`, remoteAddress: freshIp() }), 200)
    }
    const page = envelope<Outbox>(await outbox(admin), 200)
    expect(page.list.map((m) => m.to).slice(0, 3)).toEqual([...phones].reverse())
    const stored = await t.outbox()
    expect(page.list[0]).toMatchObject({ channel: 'sms', purpose: 'register', code: stored[0]!.code })
    expect(page.list[0]!.code).toMatch(/^\d{6}$/)
    const paged = envelope<Outbox>(await outbox(admin, '?pageSize=1&pageNum=2'), 200)
    expect(paged).toMatchObject({ pageNum: 2, pageSize: 1 })
    expect(paged.list.map((m) => m.to)).toEqual([phones[1]])
  })

  it('401 anonymous, 403 for a user', async () => {
    envelope(await outbox(), 401, 'auth.unauthorized')
    envelope(await outbox(await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)), 403, 'auth.forbidden')
  })

  it('bad paging → 422, never 500, nothing changed', async () => {
    const spec: EndpointSpec = {
      method: 'GET',
      url: '/api/dev/outbox',
      headers: bearer(admin),
      query: { fields: { pageNum: { type: 'int' }, pageSize: { type: 'int' } }, valid: {} },
    }
    const before = await dbFingerprint(t.db)
    for (const c of badInputs(spec)) expectRejected(await t.app.inject(c.request), c)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('GET /api/dev/outbox with real providers', () => {
  it('is 404 when both mail and SMS go out for real, and nothing lands in the outbox', async () => {
    const mail = new RecordingSender('smtp')
    const sms = new RecordingSender('aliyun')
    const t = await buildTestApp({ providers: { mail, sms } })
    try {
      const admin = await t.login('admin', ADMIN_PASSWORD)
      const phone = uniquePhone()
      const res = await t.app.inject({ method: 'GET', url: `/api/auth/getPhoneRegisterVerificationCode?phone=${phone}` })
      expect(envelope<{ delivery: string }>(res, 200).delivery).toBe('sent')
      expect(sms.sent).toEqual([expect.objectContaining({ channel: 'sms', to: phone, purpose: 'register' })])
      expect(await t.outbox()).toEqual([])
      envelope(await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: bearer(admin) }), 404, 'errors.notFound')
      // Still admin-only before anything else.
      envelope(await t.app.inject({ method: 'GET', url: '/api/dev/outbox' }), 401)
    } finally {
      await t.close()
    }
  })
})
