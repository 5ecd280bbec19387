import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { NotifyAnswer, OutgoingNotify } from '../../../test/fakes/http.ts'
import { WechatPayGatewayFake } from '../../../test/fakes/wechat-gateway.ts'
import { NotificationRejected, ProviderError, type CreatePaymentInput } from './types.ts'
import { WechatPayProvider, decryptResource } from './wechat.ts'

let fake: WechatPayGatewayFake
let provider: WechatPayProvider
let inbox: OutgoingNotify[]
let endpoint: (n: OutgoingNotify) => Promise<NotifyAnswer>

beforeAll(async () => {
  fake = await WechatPayGatewayFake.start()
  provider = new WechatPayProvider(fake.wechatConfig())
})
afterAll(() => fake.stop())
beforeEach(() => {
  inbox = []
  endpoint = async (n) => {
    let ok = true
    try {
      await provider.parseNotification({ headers: n.headers, rawBody: n.body })
    } catch {
      ok = false
    }
    const a = provider.ack(ok)
    return { status: a.status, body: a.body }
  }
  fake.transport = async (n) => {
    inbox.push(n)
    return endpoint(n)
  }
})
afterEach(() => {
  fake.responseTampering = undefined
})

let seq = 0
function order(over: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  seq++
  return {
    orderNo: `PS20261121093000${String(seq).padStart(4, '0')}${crypto.randomInt(1e6)}`,
    amount: 1230,
    subject: '考研英语真题解析 — notes',
    method: 'WeChat',
    notifyUrl: 'https://api.payshare.test/api/payments/wechat/notify',
    returnUrl: 'https://payshare.test/s/ABCDEFGH',
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...over,
  }
}

async function created(over: Partial<CreatePaymentInput> = {}) {
  const input = order(over)
  const result = await provider.createPayment(input)
  return { input, result }
}

const parse = (n: OutgoingNotify) => provider.parseNotification({ headers: n.headers, rawBody: n.body })
/** Sends one notification and returns what our endpoint would parse (or the rejection). */
async function sent(orderNo: string, opts: Parameters<WechatPayGatewayFake['sendNotify']>[1] = {}) {
  const before = inbox.length
  const answer = await fake.sendNotify(orderNo, opts)
  return { answer, notify: inbox[before]! }
}

describe('AEAD_AES_256_GCM', () => {
  test('the official known-answer vector decrypts to `message` (INTEGRATIONS §2.3)', () => {
    const plain = decryptResource(
      { ciphertext: 'ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=', nonce: 'uluk4a9R25RW', associated_data: 'associatedData' },
      'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb',
    )
    expect(plain).toBe('message')
  })

  test('a wrong AAD, key, nonce or flipped byte fails', () => {
    const v = { ciphertext: 'ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=', nonce: 'uluk4a9R25RW', associated_data: 'associatedData' }
    const key = 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb'
    expect(() => decryptResource({ ...v, associated_data: 'transaction' }, key)).toThrow()
    expect(() => decryptResource(v, 'b7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb')).toThrow()
    expect(() => decryptResource({ ...v, nonce: 'uluk4a9R25RX' }, key)).toThrow()
    const bytes = Buffer.from(v.ciphertext, 'base64')
    bytes[0]! ^= 1
    expect(() => decryptResource({ ...v, ciphertext: bytes.toString('base64') }, key)).toThrow()
  })
})

describe('createPayment', () => {
  test('places a Native order (signed request, verified answer) and returns the code_url as the QR content', async () => {
    const { input, result } = await created()
    expect(result.qrCode).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/)
    const call = fake.calls.findLast((c) => c.path === '/v3/pay/transactions/native')!
    expect(call.body).toMatchObject({
      appid: fake.appId,
      mchid: fake.mchId,
      out_trade_no: input.orderNo,
      notify_url: input.notifyUrl,
      amount: { total: 1230, currency: 'CNY' },
    })
    expect(fake.trade(input.orderNo)).toMatchObject({ state: 'NOTPAY', total: 1230 })
  })

  test('time_expire is RFC 3339 in Beijing time', async () => {
    const { input } = await created({ expiresAt: new Date('2030-01-01T00:00:00Z') })
    const call = fake.calls.findLast((c) => (c.body as { out_trade_no?: string }).out_trade_no === input.orderNo)!
    expect((call.body as { time_expire: string }).time_expire).toBe('2030-01-01T08:00:00+08:00')
  })

  test('a long description is cut to 127 bytes on a character boundary', async () => {
    const { input } = await created({ subject: '中'.repeat(100) })
    const body = fake.calls.findLast((c) => (c.body as { out_trade_no?: string }).out_trade_no === input.orderNo)!.body as { description: string }
    expect(body.description).toBe('中'.repeat(42))
  })

  test('creating the same order twice returns the same code_url', async () => {
    const input = order()
    const a = await provider.createPayment(input)
    const b = await provider.createPayment(input)
    expect(b.qrCode).toBe(a.qrCode)
  })

  test('a request signed with another merchant key is refused with 401 (the fake really verifies)', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const stranger = new WechatPayProvider(fake.wechatConfig({ mchPrivateKey: other }))
    await expect(stranger.createPayment(order())).rejects.toMatchObject({ code: 'SIGN_ERROR', retryable: false })
    const wrongSerial = new WechatPayProvider(fake.wechatConfig({ mchSerial: '0'.repeat(40) }))
    await expect(wrongSerial.createPayment(order())).rejects.toMatchObject({ code: 'SIGN_ERROR' })
  })

  test.each(['signature', 'serial', 'stale', 'unsigned', 'signtest'] as const)(
    'an answer with a spoiled signature (%s) is not believed',
    async (how) => {
      fake.responseTampering = how
      const err = await provider.createPayment(order()).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ProviderError)
      expect(err).toMatchObject({ code: 'BAD_RESPONSE_SIGNATURE', retryable: true })
    },
  )

  test('gateway errors: 5xx / SYSTEM_ERROR retryable, PARAM_ERROR not, unreachable retryable', async () => {
    fake.failNext('/v3/pay/transactions/native', { status: 500, code: 'SYSTEM_ERROR' })
    await expect(provider.createPayment(order())).rejects.toMatchObject({ code: 'SYSTEM_ERROR', retryable: true })
    await expect(provider.createPayment(order({ notifyUrl: 'https://api.payshare.test/notify?x=1' }))).rejects.toMatchObject({
      code: 'PARAM_ERROR',
      retryable: false,
    })
    const down = new WechatPayProvider(fake.wechatConfig({ baseUrl: 'http://127.0.0.1:9' }))
    await expect(down.createPayment(order())).rejects.toMatchObject({ code: 'TRANSPORT', retryable: true })
  })

  test('bad key material stops construction with the variable name', () => {
    expect(() => new WechatPayProvider(fake.wechatConfig({ mchPrivateKey: 'nope' }))).toThrow(/WECHAT_MCH_PRIVATE_KEY/)
    expect(() => new WechatPayProvider(fake.wechatConfig({ platformPublicKey: 'nope' }))).toThrow(/WECHAT_PLATFORM_PUBLIC_KEY/)
    expect(() => new WechatPayProvider(fake.wechatConfig({ apiV3Key: 'short' }))).toThrow(/WECHAT_API_V3_KEY/)
  })
})

describe('notifications', () => {
  test('create → pay → the notification parses to PAID with amount in fen, answered 204', async () => {
    const { input } = await created()
    const delivery = await fake.pay(input.orderNo)
    expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 204, body: '' }] })
    const n = await parse(inbox[0]!)
    const t = fake.trade(input.orderNo)
    expect(n).toEqual({ eventKey: t.notificationId, orderNo: input.orderNo, tradeNo: t.transactionId, state: 'PAID', amount: 1230 })
    expect(n.eventKey).toMatch(/^EV-/)
  })

  test('retries (freshly signed, same id) until a 2xx; a 200 with a FAIL body counts as received', async () => {
    const { input } = await created()
    let calls = 0
    endpoint = async () => (++calls < 3 ? { status: 500, body: '{"code":"FAIL","message":"busy"}' } : { status: 200, body: '{"code":"FAIL"}' })
    const delivery = await fake.pay(input.orderNo)
    expect(delivery.delivered).toBe(true)
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200])
    const ids = await Promise.all(inbox.map(async (n) => (await parse(n)).eventKey))
    expect(new Set(ids).size).toBe(1)
    expect(new Set(inbox.map((n) => n.headers['wechatpay-nonce'])).size).toBe(3)
  })

  test('a replayed notification parses to the same event key', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await fake.replay(input.orderNo)
    const [a, b] = await Promise.all(inbox.map(parse))
    expect(b!.eventKey).toBe(a!.eventKey)
  })

  test('a SIGNTEST probe is rejected, even with an otherwise valid signature', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    const genuine = inbox[0]!
    const probe = {
      ...genuine,
      headers: { ...genuine.headers, 'wechatpay-signature': `WECHATPAY/SIGNTEST/${genuine.headers['wechatpay-signature']}` },
    }
    await expect(parse(probe)).rejects.toThrow(/SIGNTEST/)
    const { answer } = await sent(input.orderNo, { signtest: true })
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'FAIL' })
  })

  test('a timestamp more than 300 s away is rejected; within the window it is accepted', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    const now = Math.floor(Date.now() / 1000)
    await expect(parse((await sent(input.orderNo, { timestamp: now - 301 })).notify)).rejects.toThrow(/300 s/)
    await expect(parse((await sent(input.orderNo, { timestamp: now + 310 })).notify)).rejects.toThrow(/300 s/)
    await expect(parse((await sent(input.orderNo, { timestamp: now - 250 })).notify)).resolves.toMatchObject({ state: 'PAID' })
  })

  test('an unknown serial, a foreign signature, a tampered body and missing headers are rejected', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await expect(parse((await sent(input.orderNo, { serial: 'PUB_KEY_ID_0000000000000000000000000000' })).notify)).rejects.toThrow(/unknown serial/)
    await expect(parse((await sent(input.orderNo, { signWith: 'foreign' })).notify)).rejects.toThrow(/bad signature/)
    await expect(
      parse((await sent(input.orderNo, { tamperBody: (b) => b.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') })).notify),
    ).rejects.toThrow(/bad signature/)
    const { notify } = await sent(input.orderNo)
    const { 'wechatpay-signature': _drop, ...unsigned } = notify.headers
    await expect(provider.parseNotification({ headers: unsigned, rawBody: notify.body })).rejects.toThrow(/unsigned/)
  })

  test('a resource declared with a different AAD does not decrypt and is rejected', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await expect(parse((await sent(input.orderNo, { declaredAad: 'refund' })).notify)).rejects.toThrow(/decrypt/)
  })

  test('a genuinely signed notification for another appid or mchid is rejected', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await expect(parse((await sent(input.orderNo, { transaction: { appid: 'wx0000000000000000' } })).notify)).rejects.toThrow(/appid/)
    await expect(parse((await sent(input.orderNo, { transaction: { mchid: '1900000000' } })).notify)).rejects.toThrow(/mchid/)
  })

  test('the amount comes from the signed, encrypted resource (a changed amount is reported, not trusted blindly)', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    const n = await parse((await sent(input.orderNo, { transaction: { amount: { total: 1, currency: 'CNY' } } })).notify)
    expect(n.amount).toBe(1) // the caller compares it with the order amount
  })

  test('state mapping: CLOSED / REVOKED / PAYERROR → CLOSED, NOTPAY / USERPAYING → OTHER', async () => {
    const { input } = await created()
    for (const [tradeState, state] of [
      ['CLOSED', 'CLOSED'],
      ['REVOKED', 'CLOSED'],
      ['PAYERROR', 'CLOSED'],
      ['NOTPAY', 'OTHER'],
      ['USERPAYING', 'OTHER'],
      ['SUCCESS', 'PAID'],
    ]) {
      const { notify } = await sent(input.orderNo, { transaction: { trade_state: tradeState, transaction_id: '4200000001' } })
      expect((await parse(notify)).state).toBe(state)
    }
  })

  test('non-JSON bodies and refund notifications are rejected', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await expect(parse((await sent(input.orderNo, { tamperBody: () => 'not json' })).notify)).rejects.toThrow(NotificationRejected)
    const refundEnvelope = {
      resource: { original_type: 'refund', algorithm: 'AEAD_AES_256_GCM', ...fake.encrypt('{}', 'refund'), associated_data: 'refund' },
    }
    await expect(parse((await sent(input.orderNo, { envelope: refundEnvelope })).notify)).rejects.toThrow(/refund/)
  })

  test('ack: 204 empty on success, 400 {"code":"FAIL"} on failure', () => {
    expect(provider.ack(true)).toEqual({ status: 204, contentType: 'application/json', body: '' })
    const fail = provider.ack(false)
    expect(fail.status).toBe(400)
    expect(JSON.parse(fail.body)).toMatchObject({ code: 'FAIL', message: expect.any(String) })
  })
})

describe('queryPayment', () => {
  test('NOT_FOUND, PENDING, PAID and CLOSED', async () => {
    expect(await provider.queryPayment('PS000000000000NOPE')).toEqual({ state: 'NOT_FOUND' })
    const { input } = await created()
    expect(await provider.queryPayment(input.orderNo)).toMatchObject({ state: 'PENDING', amount: 1230 })
    await fake.pay(input.orderNo)
    expect(await provider.queryPayment(input.orderNo)).toEqual({ state: 'PAID', tradeNo: fake.trade(input.orderNo).transactionId, amount: 1230 })
    const other = await created()
    fake.close(other.input.orderNo)
    expect((await provider.queryPayment(other.input.orderNo)).state).toBe('CLOSED')
    const paying = await created()
    fake.trade(paying.input.orderNo).state = 'USERPAYING'
    expect((await provider.queryPayment(paying.input.orderNo)).state).toBe('PENDING')
  })

  test('the query is a signed GET with mchid in the query string', async () => {
    const { input } = await created()
    await provider.queryPayment(input.orderNo)
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v3/pay/transactions/out-trade-no/${input.orderNo}?mchid=${fake.mchId}` })
  })

  test('a forged 404 (bad signature) is not taken as NOT_FOUND', async () => {
    fake.responseTampering = 'signature'
    await expect(provider.queryPayment('PS000000000000NOPE')).rejects.toMatchObject({ code: 'BAD_RESPONSE_SIGNATURE' })
  })
})

describe('refund', () => {
  async function paid() {
    const { input } = await created()
    await fake.pay(input.orderNo)
    return input
  }

  test('PROCESSING and SUCCESS are answered as such; the request carries refund, total, currency and notify_url', async () => {
    const input = await paid()
    const notifyUrl = 'https://api.payshare.test/api/payments/wechat/refund-notify'
    expect(await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230, reason: 'admin refund', notifyUrl })).toEqual({
      state: 'PROCESSING',
    })
    expect(fake.calls.at(-1)!.body).toMatchObject({
      out_trade_no: input.orderNo,
      out_refund_no: 'RF1',
      notify_url: notifyUrl,
      amount: { refund: 1230, total: 1230, currency: 'CNY' },
    })
    fake.refundStatus = 'SUCCESS'
    try {
      const again = await paid()
      expect(await provider.refund({ orderNo: again.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).toEqual({ state: 'SUCCESS' })
      expect(fake.calls.at(-1)!.body).not.toHaveProperty('notify_url')
    } finally {
      fake.refundStatus = 'PROCESSING'
    }
  })

  test('a refund notify_url with a query string is refused by the gateway (not retryable)', async () => {
    const input = await paid()
    await expect(
      provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230, notifyUrl: 'https://api.payshare.test/n?x=1' }),
    ).rejects.toMatchObject({ code: 'PARAM_ERROR', retryable: false })
  })

  test('retrying with the same out_refund_no is idempotent', async () => {
    const input = await paid()
    const refundNo = `R${input.orderNo}`
    await provider.refund({ orderNo: input.orderNo, refundNo, amount: 1230, totalAmount: 1230 })
    await fake.finishRefund(refundNo, 'SUCCESS', { notify: false })
    // The retry reports where the one refund stands now.
    expect(await provider.refund({ orderNo: input.orderNo, refundNo, amount: 1230, totalAmount: 1230 })).toEqual({ state: 'SUCCESS' })
    expect(fake.trade(input.orderNo).refunds.size).toBe(1)
  })

  test('failures: unpaid, over-refund, no balance (not retryable); ABNORMAL status; SYSTEM_ERROR retryable', async () => {
    const { input } = await created()
    await expect(provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      retryable: false,
    })
    const p = await paid()
    await expect(provider.refund({ orderNo: p.orderNo, refundNo: 'RF1', amount: 1231, totalAmount: 1230 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      retryable: false,
    })
    fake.balanceFen = 0
    try {
      await expect(provider.refund({ orderNo: p.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
        code: 'NOT_ENOUGH',
        retryable: false,
      })
    } finally {
      fake.balanceFen = Number.MAX_SAFE_INTEGER
    }
    fake.failNext('/v3/refund/domestic/refunds', { status: 500, code: 'SYSTEM_ERROR' })
    await expect(provider.refund({ orderNo: p.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
      code: 'SYSTEM_ERROR',
      retryable: true,
    })
    fake.refundStatus = 'ABNORMAL'
    try {
      await expect(provider.refund({ orderNo: p.orderNo, refundNo: 'RF2', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
        code: 'REFUND_ABNORMAL',
        retryable: false,
      })
    } finally {
      fake.refundStatus = 'PROCESSING'
    }
  })
})

describe('queryRefund', () => {
  test('NOT_FOUND before the refund, PROCESSING, then SUCCESS / CLOSED / ABNORMAL as the gateway says; a signed GET by out_refund_no', async () => {
    for (const end of ['SUCCESS', 'CLOSED', 'ABNORMAL'] as const) {
      const { input } = await created()
      await fake.pay(input.orderNo)
      const refundNo = `R${input.orderNo}`
      expect(await provider.queryRefund({ orderNo: input.orderNo, refundNo })).toBe('NOT_FOUND')
      await provider.refund({ orderNo: input.orderNo, refundNo, amount: 1230, totalAmount: 1230 })
      expect(await provider.queryRefund({ orderNo: input.orderNo, refundNo })).toBe('PROCESSING')
      expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v3/refund/domestic/refunds/${refundNo}` })
      await fake.finishRefund(refundNo, end, { notify: false })
      expect(await provider.queryRefund({ orderNo: input.orderNo, refundNo })).toBe(end)
    }
  })

  test('an answer about another order, a forged 404 and a 5xx are errors, not states', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await provider.refund({ orderNo: input.orderNo, refundNo: `R${input.orderNo}`, amount: 1230, totalAmount: 1230 })
    await expect(provider.queryRefund({ orderNo: 'PS000000000000OTHER', refundNo: `R${input.orderNo}` })).rejects.toMatchObject({ code: 'MISMATCH' })
    fake.responseTampering = 'signature'
    await expect(provider.queryRefund({ orderNo: input.orderNo, refundNo: 'RNOPE' })).rejects.toMatchObject({ code: 'BAD_RESPONSE_SIGNATURE' })
    fake.responseTampering = undefined
    fake.failNext(`/v3/refund/domestic/refunds/R${input.orderNo}`, { status: 500, code: 'SYSTEM_ERROR' })
    await expect(provider.queryRefund({ orderNo: input.orderNo, refundNo: `R${input.orderNo}` })).rejects.toMatchObject({ retryable: true })
  })
})

describe('refund notifications', () => {
  const REFUND_NOTIFY = 'https://api.payshare.test/api/payments/wechat/refund-notify'
  const parseRefund = (n: OutgoingNotify) => provider.parseRefundNotification({ headers: n.headers, rawBody: n.body })
  beforeEach(() => {
    endpoint = async (n) => {
      let ok = true
      try {
        await parseRefund(n)
      } catch {
        ok = false
      }
      const a = provider.ack(ok)
      return { status: a.status, body: a.body }
    }
  })

  /** A paid order with a PROCESSING refund that reports to REFUND_NOTIFY. */
  async function refunding() {
    const { input } = await created()
    await fake.pay(input.orderNo, { notify: false })
    const refundNo = `R${input.orderNo}`
    await provider.refund({ orderNo: input.orderNo, refundNo, amount: 1230, totalAmount: 1230, notifyUrl: REFUND_NOTIFY })
    return { orderNo: input.orderNo, refundNo }
  }

  test('REFUND.SUCCESS / CLOSED / ABNORMAL parse to the refund, its order, the state from the encrypted resource and the amount', async () => {
    for (const end of ['SUCCESS', 'CLOSED', 'ABNORMAL'] as const) {
      const { orderNo, refundNo } = await refunding()
      const delivery = await fake.finishRefund(refundNo, end)
      expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 204, body: '' }] })
      const sent = inbox.at(-1)!
      expect(sent.url).toBe(REFUND_NOTIFY)
      expect(JSON.parse(sent.body)).toMatchObject({ event_type: `REFUND.${end}`, resource: { original_type: 'refund', associated_data: 'refund' } })
      const n = await parseRefund(sent)
      expect(n).toEqual({ eventKey: fake.refundOf(refundNo).refund.notificationId, orderNo, refundNo, state: end, amount: 1230 })
    }
  })

  test('a replay parses to the same event key; the clear-text event_type is not what decides', async () => {
    const { refundNo } = await refunding()
    await fake.finishRefund(refundNo, 'ABNORMAL')
    await fake.replayRefund(refundNo)
    const [a, b] = await Promise.all(inbox.slice(-2).map(parseRefund))
    expect(b!.eventKey).toBe(a!.eventKey)
    const claimed = await fake.sendRefundNotify(refundNo, { envelope: { event_type: 'REFUND.SUCCESS' } })
    expect(claimed.status).toBe(204)
    expect((await parseRefund(inbox.at(-1)!)).state).toBe('ABNORMAL')
  })

  test('forged, tampered, stale, foreign and mistyped refund notifications are rejected', async () => {
    const { orderNo, refundNo } = await refunding()
    await fake.finishRefund(refundNo, 'SUCCESS', { notify: false })
    const now = Math.floor(Date.now() / 1000)
    for (const [forged, why] of [
      [{ signtest: true }, /SIGNTEST/],
      [{ signWith: 'foreign' }, /bad signature/],
      [{ serial: 'PUB_KEY_ID_0000000000000000000000000000' }, /unknown serial/],
      [{ timestamp: now - 600 }, /300 s/],
      [{ declaredAad: 'transaction' }, /decrypt/],
      [{ transaction: { mchid: '1900000000' } }, /mchid/],
      [{ transaction: { refund_status: 'PROCESSING' } }, /refund_status/],
      [{ transaction: { amount: { total: 1230 } } }, /missing/],
      [{ tamperBody: (b: string) => b.replace('"REFUND.SUCCESS"', '"REFUND.SUCCESS" ') }, /bad signature/],
    ] as const) {
      const answer = await fake.sendRefundNotify(refundNo, forged as Parameters<typeof fake.sendRefundNotify>[1])
      expect(answer.status, String(why)).toBe(400)
      await expect(parseRefund(inbox.at(-1)!)).rejects.toThrow(why)
    }
    // A payment notification is not a refund notification, nor the other way round.
    await fake.sendNotify(orderNo)
    await expect(parseRefund(inbox.at(-1)!)).rejects.toThrow(/transaction/)
    await fake.sendRefundNotify(refundNo)
    await expect(parse(inbox.at(-1)!)).rejects.toThrow(/refund/)
  })
})
