import crypto from 'node:crypto'
import { AlipaySdk } from 'alipay-sdk'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { AlipayGatewayFake } from '../../../test/fakes/alipay-gateway.ts'
import type { NotifyAnswer, OutgoingNotify } from '../../../test/fakes/http.ts'
import { AlipayProvider } from './alipay.ts'
import { NotificationRejected, ProviderError, type CreatePaymentInput } from './types.ts'

let fake: AlipayGatewayFake
let provider: AlipayProvider
/** Notifies the fake sent, as our notify endpoint would receive them. */
let inbox: OutgoingNotify[]
/** How the stand-in notify endpoint answers: parse with the provider, answer with its ack. */
let endpoint: (n: OutgoingNotify) => Promise<NotifyAnswer>

beforeAll(async () => {
  fake = await AlipayGatewayFake.start()
  provider = new AlipayProvider(fake.alipayConfig())
})
afterAll(() => fake.stop())
beforeEach(() => {
  inbox = []
  endpoint = async (n) => {
    try {
      await provider.parseNotification({ headers: n.headers, rawBody: n.body })
      const a = provider.ack(true)
      return { status: a.status, body: a.body }
    } catch {
      const a = provider.ack(false)
      return { status: a.status, body: a.body }
    }
  }
  fake.transport = async (n) => {
    inbox.push(n)
    return endpoint(n)
  }
})

let seq = 0
function order(over: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  seq++
  return {
    orderNo: `PS2026112109300${String(seq).padStart(3, '0')}${crypto.randomInt(1e6)}`,
    amount: 1230,
    subject: 'Notes on A/B = testing & more',
    method: 'Alipay',
    notifyUrl: 'https://api.payshare.test/api/payments/alipay/notify',
    returnUrl: 'https://payshare.test/s/ABCDEFGH?orderNo=x',
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...over,
  }
}

/** Creates the payment and opens its URL (the trade exists at Alipay from then on). */
async function created(over: Partial<CreatePaymentInput> = {}) {
  const input = order(over)
  const { payUrl } = await provider.createPayment(input)
  expect(payUrl).toBeTruthy()
  const page = await fake.open(payUrl!)
  expect(page.status, page.html).toBe(200)
  return { input, payUrl: payUrl!, page }
}

const parse = (body: string, headers: Record<string, string> = {}) => provider.parseNotification({ headers, rawBody: body })

describe('createPayment', () => {
  test('returns a signed GET page-pay URL that the gateway accepts and renders as a cashier', async () => {
    const { input, payUrl, page } = await created()
    const url = new URL(payUrl)
    expect(url.origin + url.pathname).toBe(fake.gateway)
    expect(url.searchParams.get('method')).toBe('alipay.trade.page.pay')
    expect(url.searchParams.get('notify_url')).toBe(input.notifyUrl)
    expect(url.searchParams.get('return_url')).toBe(input.returnUrl)
    const biz = JSON.parse(url.searchParams.get('biz_content')!)
    expect(biz).toMatchObject({ out_trade_no: input.orderNo, total_amount: '12.30', product_code: 'FAST_INSTANT_TRADE_PAY' })
    expect(biz.subject).not.toMatch(/[/=&]/)
    expect(page.html).toContain('12.30')
    expect(page.html).toMatch(/<button[^>]*>Pay<\/button>/)
  })

  test('timestamp and time_expire are Beijing time, whatever the process time zone', async () => {
    const expiresAt = new Date('2030-01-01T00:00:00Z')
    const { payUrl } = await provider.createPayment(order({ expiresAt }))
    const url = new URL(payUrl!)
    expect(JSON.parse(url.searchParams.get('biz_content')!).time_expire).toBe('2030-01-01 08:00:00')
    const ts = new Date(`${url.searchParams.get('timestamp')!.replace(' ', 'T')}+08:00`).getTime()
    expect(Math.abs(ts - Date.now())).toBeLessThan(60_000)
  })

  test('amounts are exact yuan text', async () => {
    for (const [fen, yuan] of [
      [1, '0.01'],
      [10, '0.10'],
      [100, '1.00'],
      [123456789, '1234567.89'],
    ] as const) {
      const { payUrl } = await provider.createPayment(order({ amount: fen }))
      expect(JSON.parse(new URL(payUrl!).searchParams.get('biz_content')!).total_amount).toBe(yuan)
    }
  })

  test('the gateway refuses a URL whose parameters were changed after signing', async () => {
    const { payUrl } = await provider.createPayment(order())
    const url = new URL(payUrl!)
    const biz = JSON.parse(url.searchParams.get('biz_content')!)
    url.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }))
    const page = await fake.open(url.toString())
    expect(page.status).toBe(400)
    expect(page.html).toContain('isv.invalid-signature')
  })

  test('a provider holding another app key is refused by the gateway (the fake really verifies)', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const stranger = new AlipayProvider(fake.alipayConfig({ privateKey: other }))
    const { payUrl } = await stranger.createPayment(order())
    expect((await fake.open(payUrl!)).html).toContain('isv.invalid-signature')
  })

  test('keys are accepted as PKCS#1 PEM, PKCS#8 PEM and bare base64 (as the Alipay console shows them)', async () => {
    const der = fake.appKeys.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64')
    const pub = fake.alipayKeys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
    for (const privateKey of [der, fake.appKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()]) {
      const p = new AlipayProvider(fake.alipayConfig({ privateKey, alipayPublicKey: pub }))
      const { payUrl } = await p.createPayment(order())
      expect((await fake.open(payUrl!)).status).toBe(200)
    }
    expect(() => new AlipayProvider(fake.alipayConfig({ privateKey: 'not a key' }))).toThrow(/ALIPAY_PRIVATE_KEY/)
    expect(() => new AlipayProvider(fake.alipayConfig({ alipayPublicKey: 'MIIBIjAN' }))).toThrow(/ALIPAY_PUBLIC_KEY/)
  })
})

describe('notifications', () => {
  test('create → pay → the notify parses to PAID with amount in fen, answered `success`', async () => {
    const { input } = await created()
    const delivery = await fake.pay(input.orderNo)
    expect(delivery.delivered).toBe(true)
    expect(delivery.attempts).toEqual([{ status: 200, body: 'success' }])
    const n = await parse(inbox[0]!.body)
    const t = fake.trade(input.orderNo)
    expect(n).toEqual({
      eventKey: new URLSearchParams(inbox[0]!.body).get('notify_id'),
      orderNo: input.orderNo,
      tradeNo: t.tradeNo,
      state: 'PAID',
      amount: 1230,
    })
  })

  test('the cashier page Pay button notifies and sends the browser to return_url with signed sync params', async () => {
    const { input } = await created()
    const res = await fetch(`${fake.url}/cashier/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ out_trade_no: input.orderNo }).toString(),
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    const back = new URL(res.headers.get('location')!)
    expect(back.origin + back.pathname).toBe('https://payshare.test/s/ABCDEFGH')
    expect(back.searchParams.get('orderNo')).toBe('x')
    expect(back.searchParams.get('out_trade_no')).toBe(input.orderNo)
    expect(back.searchParams.get('method')).toBe('alipay.trade.page.pay.return')
    expect(inbox).toHaveLength(1)
    expect((await parse(inbox[0]!.body)).state).toBe('PAID')
  })

  test('notifies are retried with the same notify_id until the answer is exactly `success`', async () => {
    const { input } = await created()
    let calls = 0
    endpoint = async () => (++calls < 3 ? { status: 200, body: calls === 1 ? 'fail' : 'success ' } : { status: 200, body: 'success' })
    const delivery = await fake.pay(input.orderNo)
    expect(delivery.delivered).toBe(true)
    expect(delivery.attempts.map((a) => a.body)).toEqual(['fail', 'success ', 'success'])
    const ids = inbox.map((n) => new URLSearchParams(n.body).get('notify_id'))
    expect(new Set(ids).size).toBe(1)
  })

  test('a notify that is never acknowledged stops after the 8 attempts of the schedule', async () => {
    const { input } = await created()
    endpoint = async () => ({ status: 500, body: '' })
    const delivery = await fake.pay(input.orderNo)
    expect(delivery.delivered).toBe(false)
    expect(delivery.attempts).toHaveLength(8)
  })

  test('a replayed notify parses to the same event key (the caller dedupes on it)', async () => {
    const { input } = await created()
    await fake.pay(input.orderNo)
    await fake.replay(input.orderNo)
    const [a, b] = await Promise.all(inbox.map((n) => parse(n.body)))
    expect(a!.eventKey).toBe(b!.eventKey)
  })

  test.each([
    ['total_amount', '0.01'],
    ['out_trade_no', 'PS00000000000000000000000000'],
    ['trade_status', 'TRADE_SUCCESS'],
    ['app_id', '2021009999999999'],
    ['notify_id', 'another'],
  ])('a notify with %s changed after signing is rejected', async (field, value) => {
    const { input } = await created()
    if (field === 'trade_status') fake.close(input.orderNo) // so the genuine status is TRADE_CLOSED
    const answer = await fake.sendNotify(input.orderNo, { tamper: { [field]: value } })
    expect(answer).toEqual({ status: 200, body: 'fail' })
    await expect(parse(inbox[0]!.body)).rejects.toThrow(NotificationRejected)
  })

  test('a notify signed with another key or unsigned is rejected', async () => {
    const { input } = await created()
    await fake.sendNotify(input.orderNo, { signWith: 'foreign' })
    await fake.sendNotify(input.orderNo, { tamper: { sign: null } })
    for (const n of inbox) await expect(parse(n.body)).rejects.toThrow(NotificationRejected)
  })

  test('only RSA2 is accepted: a notify signed with legacy RSA (SHA-1) is rejected', async () => {
    const { input } = await created()
    await expect(parse((await build(input.orderNo, { sign_type: 'RSA' })).body)).rejects.toThrow(/sign_type/)
  })

  test('a genuinely signed notify for another app or another seller is rejected', async () => {
    const { input } = await created()
    await expect(parse((await build(input.orderNo, { app_id: '2021000000009999' })).body)).rejects.toThrow(/app_id/)
    await expect(parse((await build(input.orderNo, { seller_id: '2088000000009999' })).body)).rejects.toThrow(/seller_id/)
    // Without a configured seller id only the app id is checked.
    const lenient = new AlipayProvider(fake.alipayConfig({ sellerId: undefined }))
    const n = await lenient.parseNotification({ headers: {}, rawBody: (await build(input.orderNo, { seller_id: '2088000000009999' })).body })
    expect(n.orderNo).toBe(input.orderNo)
  })

  test('garbage is rejected', async () => {
    for (const body of ['', 'sign=abc', 'a=1&a=2&sign=x', '%%%']) await expect(parse(body)).rejects.toThrow(NotificationRejected)
  })

  test('state mapping: TRADE_CLOSED → CLOSED, TRADE_FINISHED → PAID, WAIT_BUYER_PAY → OTHER', async () => {
    const { input } = await created()
    expect((await parse((await build(input.orderNo, {})).body)).state).toBe('OTHER')
    expect((await parse((await build(input.orderNo, { trade_status: 'TRADE_FINISHED' })).body)).state).toBe('PAID')
    fake.close(input.orderNo)
    expect((await parse((await build(input.orderNo, {})).body)).state).toBe('CLOSED')
  })

  test('values with % and + survive (checkNotifySignV2 verifies the raw values)', async () => {
    const { input } = await created()
    const n = await build(input.orderNo, { passback_params: 'a%20b+c=d&e', body: '100% off + more' })
    expect((await parse(n.body)).orderNo).toBe(input.orderNo)
  })

  test('a malformed amount in a genuinely signed notify is rejected', async () => {
    const { input } = await created()
    await expect(parse((await build(input.orderNo, { total_amount: '12.345' })).body)).rejects.toThrow(/total_amount/)
  })

  test('ack answers exactly `success` or `fail` as text', () => {
    expect(provider.ack(true)).toEqual({ status: 200, contentType: 'text/plain', body: 'success' })
    expect(provider.ack(false)).toEqual({ status: 200, contentType: 'text/plain', body: 'fail' })
  })
})

/** A genuinely signed notify with field changes, captured without parsing. */
async function build(orderNo: string, fields: Record<string, string>) {
  const before = inbox.length
  await fake.sendNotify(orderNo, { fields })
  return inbox[before]!
}

describe('queryPayment', () => {
  test('unknown until the buyer opens the page, then PENDING, PAID, or CLOSED', async () => {
    const input = order()
    const { payUrl } = await provider.createPayment(input)
    expect(await provider.queryPayment(input.orderNo)).toEqual({ state: 'NOT_FOUND' })
    await fake.open(payUrl!)
    expect(await provider.queryPayment(input.orderNo)).toMatchObject({ state: 'PENDING', amount: 1230 })
    await fake.pay(input.orderNo)
    expect(await provider.queryPayment(input.orderNo)).toEqual({ state: 'PAID', tradeNo: fake.trade(input.orderNo).tradeNo, amount: 1230 })
    const other = await created()
    fake.close(other.input.orderNo)
    expect((await provider.queryPayment(other.input.orderNo)).state).toBe('CLOSED')
  })

  test('the query is a signed gateway call checked with the app public key', async () => {
    const { input } = await created()
    const before = fake.calls.length
    await provider.queryPayment(input.orderNo)
    expect(fake.calls.slice(before).map((c) => c.method)).toEqual(['alipay.trade.query'])
    const stranger = new AlipayProvider(fake.alipayConfig({ appId: '2021000000000404' }))
    await expect(stranger.queryPayment(input.orderNo)).rejects.toMatchObject({ code: 'isv.invalid-app-id', retryable: false })
  })

  test('a response with a bad signature is not believed (retryable: outcome unknown)', async () => {
    const { input } = await created()
    fake.failNext('alipay.trade.query', 'badSignature')
    await expect(provider.queryPayment(input.orderNo)).rejects.toMatchObject({ code: 'BAD_RESPONSE_SIGNATURE', retryable: true })
  })

  test('ACQ.SYSTEM_ERROR and HTTP 500 are retryable; other business errors are not', async () => {
    const { input } = await created()
    fake.failNext('alipay.trade.query', { code: '20000', sub_code: 'ACQ.SYSTEM_ERROR' })
    await expect(provider.queryPayment(input.orderNo)).rejects.toMatchObject({ code: 'ACQ.SYSTEM_ERROR', retryable: true })
    fake.failNext('alipay.trade.query', 'http500')
    await expect(provider.queryPayment(input.orderNo)).rejects.toMatchObject({ code: 'TRANSPORT', retryable: true })
    fake.failNext('alipay.trade.query', { sub_code: 'ACQ.INVALID_PARAMETER' })
    await expect(provider.queryPayment(input.orderNo)).rejects.toMatchObject({ code: 'ACQ.INVALID_PARAMETER', retryable: false })
  })

  test('an unreachable gateway is a retryable ProviderError', async () => {
    const down = new AlipayProvider(fake.alipayConfig({ gateway: 'http://127.0.0.1:9/gateway.do' }))
    const err = await down.queryPayment('PS1').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderError)
    expect(err).toMatchObject({ retryable: true })
  })
})

describe('refund', () => {
  async function paid(amount = 1230) {
    const { input } = await created({ amount })
    await fake.pay(input.orderNo)
    return input
  }

  test('a full refund succeeds (code 10000, fund_change Y) and the trade closes', async () => {
    const input = await paid()
    expect(await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230, reason: 'admin refund' })).toEqual({
      state: 'SUCCESS',
    })
    expect(fake.trade(input.orderNo).status).toBe('TRADE_CLOSED')
    const call = fake.calls.findLast((c) => c.method === 'alipay.trade.refund')!
    expect(JSON.parse(call.params.biz_content!)).toMatchObject({ out_trade_no: input.orderNo, out_request_no: 'RF1', refund_amount: '12.30' })
  })

  test('retrying the same refund (fund_change N) is confirmed by the refund query', async () => {
    const input = await paid()
    await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })
    expect(await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).toEqual({ state: 'SUCCESS' })
    expect(fake.calls.map((c) => c.method)).toContain('alipay.trade.fastpay.refund.query')
    expect(fake.trade(input.orderNo).refunds.size).toBe(1)
  })

  test('an accepted but unsettled refund (fund_change N, no refund_status) is PROCESSING until the query confirms it', async () => {
    const input = await paid()
    fake.refundMode = 'deferred'
    try {
      const refund = { orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 }
      expect(await provider.refund(refund)).toEqual({ state: 'PROCESSING' })
      expect(await provider.queryRefund(refund)).toBe('PROCESSING')
      fake.settleRefunds()
      expect(await provider.queryRefund(refund)).toBe('SUCCESS')
      expect(await provider.refund(refund)).toEqual({ state: 'SUCCESS' })
      expect(fake.trade(input.orderNo).refunds.size).toBe(1)
    } finally {
      fake.refundMode = 'instant'
    }
  })

  test('queryRefund: NOT_FOUND for a refund or a trade Alipay does not know, SUCCESS once refunded; a signed query', async () => {
    const input = await paid()
    expect(await provider.queryRefund({ orderNo: input.orderNo, refundNo: 'RF1' })).toBe('NOT_FOUND')
    expect(await provider.queryRefund({ orderNo: 'PSNOPE', refundNo: 'RF1' })).toBe('NOT_FOUND')
    await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })
    expect(await provider.queryRefund({ orderNo: input.orderNo, refundNo: 'RF1' })).toBe('SUCCESS')
    const call = fake.calls.findLast((c) => c.method === 'alipay.trade.fastpay.refund.query')!
    expect(JSON.parse(call.params.biz_content!)).toEqual({ out_trade_no: input.orderNo, out_request_no: 'RF1' })
    fake.failNext('alipay.trade.fastpay.refund.query', { code: '20000', sub_code: 'ACQ.SYSTEM_ERROR' })
    await expect(provider.queryRefund({ orderNo: input.orderNo, refundNo: 'RF1' })).rejects.toMatchObject({ retryable: true })
  })

  test('refunding an unpaid, unknown or over-refunded trade fails, not retryable', async () => {
    const { input } = await created()
    await expect(provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
      code: 'ACQ.TRADE_STATUS_ERROR',
      retryable: false,
    })
    await expect(provider.refund({ orderNo: 'PSNOPE', refundNo: 'RF1', amount: 1, totalAmount: 1 })).rejects.toMatchObject({
      code: 'ACQ.TRADE_NOT_EXIST',
    })
    const p = await paid()
    await expect(provider.refund({ orderNo: p.orderNo, refundNo: 'RF1', amount: 1231, totalAmount: 1230 })).rejects.toMatchObject({
      code: 'ACQ.REASON_TRADE_REFUND_FEE_ERR',
      retryable: false,
    })
  })

  test('a low merchant balance fails; ACQ.SYSTEM_ERROR is retryable with the same out_request_no', async () => {
    const input = await paid()
    fake.sellerBalanceFen = 100
    try {
      await expect(provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })).rejects.toMatchObject({
        code: 'ACQ.SELLER_BALANCE_NOT_ENOUGH',
        retryable: false,
      })
    } finally {
      fake.sellerBalanceFen = Number.MAX_SAFE_INTEGER
    }
    fake.failNext('alipay.trade.refund', { code: '20000', sub_code: 'ACQ.SYSTEM_ERROR' })
    const err = await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderError)
    expect(err).toMatchObject({ code: 'ACQ.SYSTEM_ERROR', retryable: true })
    await provider.refund({ orderNo: input.orderNo, refundNo: 'RF1', amount: 1230, totalAmount: 1230 })
    expect(fake.trade(input.orderNo).status).toBe('TRADE_CLOSED')
  })
})

describe('the fake gateway itself', () => {
  test('v3 API: verifies the ALIPAY-SHA256withRSA authorization and signs its answers (SDK curl)', async () => {
    const { input } = await created()
    const cfg = fake.alipayConfig()
    const sdk = new AlipaySdk({
      appId: cfg.appId,
      privateKey: cfg.privateKey,
      alipayPublicKey: cfg.alipayPublicKey,
      endpoint: fake.url,
      gateway: fake.gateway,
    })
    const r = await sdk.curl('POST', '/v3/alipay/trade/query', { body: { out_trade_no: input.orderNo } })
    expect(r.data).toMatchObject({ out_trade_no: input.orderNo, trade_status: 'WAIT_BUYER_PAY' })
    const wrongKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
    const stranger = new AlipaySdk({ appId: cfg.appId, privateKey: wrongKey, alipayPublicKey: cfg.alipayPublicKey, endpoint: fake.url })
    await expect(stranger.curl('POST', '/v3/alipay/trade/query', { body: { out_trade_no: input.orderNo } })).rejects.toMatchObject({
      responseHttpStatus: 401,
    })
  })

  test('a request stamped with UTC wall-clock time (8 hours off) is refused as isv.invalid-timestamp', async () => {
    const cfg = fake.alipayConfig()
    const sdk = new AlipaySdk({
      appId: cfg.appId,
      privateKey: cfg.privateKey,
      alipayPublicKey: cfg.alipayPublicKey,
      gateway: fake.gateway,
      camelcase: false,
    })
    const utc = new Date().toISOString().slice(0, 19).replace('T', ' ')
    const r = await sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: 'PS1' }, timestamp: utc }, { validateSign: true })
    expect(r.sub_code).toBe('isv.invalid-timestamp')
  })
})
