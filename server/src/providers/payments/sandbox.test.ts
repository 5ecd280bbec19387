import crypto from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { SandboxProvider } from './sandbox.ts'
import { NotificationRejected, type CreatePaymentInput } from './types.ts'

const API = 'http://127.0.0.1:4000'
const provider = () => new SandboxProvider('sandbox-test-key', API)

function order(over: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    orderNo: `PS${crypto.randomInt(1e9)}`,
    amount: 990,
    subject: 'Sandbox notes',
    method: 'Alipay',
    notifyUrl: `${API}/api/payments/sandbox/notify`,
    returnUrl: 'http://localhost:3000/s/ABCDEFGH',
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...over,
  }
}

/** The checkout link's parameters as the checkout page reads them. */
async function checkout(p: SandboxProvider, input: CreatePaymentInput) {
  const { payUrl, qrCode } = await p.createPayment(input)
  const url = new URL(payUrl!)
  const q = Object.fromEntries(url.searchParams) as Record<string, string>
  return {
    url,
    qrCode,
    q,
    check: (over: Partial<Record<string, string | number>> = {}) =>
      p.verifyCheckout({ orderNo: q.orderNo!, amount: Number(q.amount), method: q.method!, returnUrl: q.returnUrl!, sig: q.sig!, ...over }),
  }
}

describe('checkout links', () => {
  test('point at the API checkout page and verify; WeChat gets the same link as QR content', async () => {
    const p = provider()
    const a = await checkout(p, order())
    expect(a.url.origin + a.url.pathname).toBe(`${API}/api/payments/sandbox/checkout`)
    expect(a.check()).toBe(true)
    const w = await checkout(p, order({ method: 'WeChat' }))
    expect(w.qrCode).toBe(w.url.toString())
  })

  test('a changed amount, method, return URL or order number fails verification', async () => {
    const p = provider()
    const c = await checkout(p, order())
    expect(c.check({ amount: 1 })).toBe(false)
    expect(c.check({ method: 'WeChat' })).toBe(false)
    expect(c.check({ returnUrl: 'https://evil.example/' })).toBe(false)
    expect(c.check({ orderNo: 'PS1' })).toBe(false)
    expect(c.check({ sig: 'short' })).toBe(false)
  })

  test('a link made with another key does not verify', async () => {
    const c = await checkout(new SandboxProvider('another-key', API), order())
    expect(
      provider().verifyCheckout({ orderNo: c.q.orderNo!, amount: Number(c.q.amount), method: c.q.method!, returnUrl: c.q.returnUrl!, sig: c.q.sig! }),
    ).toBe(false)
  })
})

describe('notifications', () => {
  test('pay → settle → the signed notify parses to PAID; cancel → CLOSED', async () => {
    const p = provider()
    const input = order()
    const paid = p.settle(input.orderNo, input.amount, true)
    const n = await p.parseNotification({ headers: paid.headers, rawBody: paid.body })
    expect(n).toMatchObject({ orderNo: input.orderNo, amount: 990, state: 'PAID' })
    expect(n.tradeNo).toMatch(/^SBX/)
    const other = order()
    const closed = p.settle(other.orderNo, other.amount, false)
    expect((await p.parseNotification({ headers: closed.headers, rawBody: closed.body })).state).toBe('CLOSED')
  })

  test('a replayed notify keeps its event key', async () => {
    const p = provider()
    const s = p.settle('PS1', 990, true)
    const a = await p.parseNotification({ headers: s.headers, rawBody: s.body })
    const b = await p.parseNotification({ headers: s.headers, rawBody: s.body })
    expect(b.eventKey).toBe(a.eventKey)
  })

  test('tampered body, foreign key, stale or missing timestamp are rejected', async () => {
    const p = provider()
    const s = p.settle('PS1', 990, true)
    const reject = (headers: Record<string, string>, rawBody: string) =>
      expect(p.parseNotification({ headers, rawBody })).rejects.toThrow(NotificationRejected)
    await reject(s.headers, s.body.replace('"amount_fen":990', '"amount_fen":1'))
    const foreign = new SandboxProvider('another-key', API).settle('PS1', 990, true)
    await reject(foreign.headers, foreign.body)
    const old = String(Date.now() - 301_000)
    await reject({ ...s.headers, 'x-sandbox-timestamp': old, 'x-sandbox-signature': p.sign(`${old}\n${s.body}`) }, s.body)
    const { 'x-sandbox-timestamp': _ts, ...noTs } = s.headers
    await reject(noTs, s.body)
  })

  test('a correctly signed body that is not JSON or lacks fields is rejected', async () => {
    const p = provider()
    const ts = String(Date.now())
    for (const body of ['not json', JSON.stringify({ order_no: 'PS1', trade_no: 'T', amount_fen: 1 })]) {
      await expect(
        p.parseNotification({ headers: { 'x-sandbox-timestamp': ts, 'x-sandbox-signature': p.sign(`${ts}\n${body}`) }, rawBody: body }),
      ).rejects.toThrow(NotificationRejected)
    }
  })

  test('ack answers success / fail', () => {
    expect(provider().ack(true)).toMatchObject({ status: 200, body: 'success' })
    expect(provider().ack(false)).toMatchObject({ status: 400, body: 'fail' })
  })
})

describe('query and refund', () => {
  test('NOT_FOUND until settled, then PAID or CLOSED; a refund leaves it no longer PAID', async () => {
    const p = provider()
    expect(await p.queryPayment('PS1')).toEqual({ state: 'NOT_FOUND' })
    const s = p.settle('PS1', 990, true)
    const tradeNo = (JSON.parse(s.body) as { trade_no: string }).trade_no
    expect(await p.queryPayment('PS1')).toEqual({ state: 'PAID', tradeNo, amount: 990 })
    // A cancel after paying does not unpay.
    p.settle('PS1', 990, false)
    expect((await p.queryPayment('PS1')).state).toBe('PAID')
    expect(await p.queryRefund({ orderNo: 'PS1', refundNo: 'RF1' })).toBe('NOT_FOUND')
    expect(await p.refund({ orderNo: 'PS1', refundNo: 'RF1', amount: 990, totalAmount: 990 })).toEqual({ state: 'SUCCESS' })
    expect((await p.queryPayment('PS1')).state).toBe('CLOSED')
    expect(await p.queryRefund({ orderNo: 'PS1', refundNo: 'RF1' })).toBe('SUCCESS')
    expect(await p.queryRefund({ orderNo: 'PS1', refundNo: 'RF2' })).toBe('NOT_FOUND')
    p.settle('PS2', 100, false)
    expect((await p.queryPayment('PS2')).state).toBe('CLOSED')
  })
})
