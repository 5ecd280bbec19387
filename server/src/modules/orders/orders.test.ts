import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { yuanToFen } from '#contract/money.ts'
import { maskOrderNo } from '#contract/orders.ts'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { inboundEvents, ledgerEntries, orders, shares } from '../../db/schema/index.ts'
import { ProviderError } from '../../providers/payments/types.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp, createUser, dbFingerprint, type TestApp } from '../../../test/helpers.ts'
import { finishOwedRefunds, refundContext } from './settlement.ts'
import { newOrderNo } from './rules.ts'

let t: TestApp
let seller: string
let admin: string
let buyer: string
const SECRET = 'paid secret: open sesame 芝麻开门'

async function approvedShare(price = 12.34) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/shares/new',
    headers: bearer(seller),
    payload: newShareBody(buildShare({ title: 'Paid thing', content: SECRET, priceFen: yuanToFen(price) })),
  })
  const s = res.json().data as { id: number; unicode: string }
  await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
  return s
}

async function createOrder(unicode: string, paymentMethod = 'Alipay', token?: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', headers: token ? bearer(token) : {}, payload: { unicode, paymentMethod } })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().data as { orderNo: string; buyerKey: string; payUrl?: string; qrCode?: string }
}

/** What the sandbox gateway sends when the payer presses Pay (or Cancel). */
function notify(orderNo: string, amountFen: number, paid = true) {
  const n = t.app.payments.sandbox!.settle(orderNo, amountFen, paid)
  return { method: 'POST' as const, url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body }
}

const orderRow = async (orderNo: string) => (await t.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
const ledgerFor = async (orderId: number) => t.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId))
const lookup = (orderNo: string, headers: Record<string, string> = {}) => t.app.inject({ url: `/api/share?third_party_trade_no=${orderNo}`, headers })

beforeAll(async () => {
  t = await buildTestApp()
  seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  admin = await t.login('admin', ADMIN_PASSWORD)
  buyer = await t.login(DEMO_BUYER.userName, DEMO_PASSWORD)
})
afterAll(() => t.close())

describe('buying', () => {
  it('creates a Pending order and hands over to the gateway; nothing reveals the content before payment', async () => {
    const s = await approvedShare()
    const alipay = await createOrder(s.unicode, 'Alipay')
    expect(alipay.orderNo).toMatch(/^PS\d{26}$/)
    expect(alipay.payUrl).toContain('/api/payments/sandbox/checkout?')
    const wechat = await createOrder(s.unicode, 'WeChat')
    expect(wechat.qrCode).toBeTruthy()
    const row = await orderRow(alipay.orderNo)
    expect(row.paymentStatus).toBe('Pending')
    expect(row.amountFen).toBe(1234)
    const before = await lookup(alipay.orderNo)
    expect(before.statusCode).toBe(200)
    expect(before.json().data.third_party_trade_no).toBe('')
    expect(before.body).not.toContain('open sesame')
    const status = await t.app.inject({ url: `/api/orders/payment-status?orderNo=${alipay.orderNo}` })
    expect(status.json().data).toMatchObject({ payment_status: 'Pending', third_party_trade_no: '' })
    expect(status.body).not.toContain('open sesame')
  })

  it('refuses shares that are not for sale, the seller\'s own share, and bad input, changing nothing', async () => {
    const pending = (
      await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(seller), payload: { title: 'x', type: 'text', content: 'y', price: 1 } })
    ).json().data
    const before = await dbFingerprint(t.db)
    const notApproved = await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: pending.unicode, paymentMethod: 'Alipay' } })
    expect(notApproved.statusCode).toBe(409)
    expect(notApproved.json().msg).toBe('shares.notForSale')
    const s = await approvedShare()
    const mid = await dbFingerprint(t.db)
    const own = await t.app.inject({ method: 'POST', url: '/api/orders/create', headers: bearer(seller), payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })
    expect(own.statusCode).toBe(409)
    for (const c of badInputs({ method: 'POST', url: '/api/orders/create', body: { fields: { unicode: { type: 'string', required: true }, paymentMethod: { type: 'string', required: true } }, valid: { unicode: s.unicode, paymentMethod: 'Alipay' } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    expect(await dbFingerprint(t.db)).toEqual(mid)
    expect(before).not.toEqual(mid)
  })

  it('completes through the sandbox checkout: the order, the trade number, the content, one ledger entry, first reveal recorded', async () => {
    const s = await approvedShare(20)
    const { orderNo, payUrl, buyerKey } = await createOrder(s.unicode, 'Alipay', buyer)
    // A buyer key for the creating client only (decision 102): 128 random bits, stored hashed.
    expect(buyerKey).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(JSON.stringify(await orderRow(orderNo))).not.toContain(buyerKey)
    const url = new URL(payUrl!)
    const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), action: 'pay' })
    const page = await t.app.inject({ url: url.pathname + url.search })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('¥20.00')
    const paid = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/checkout', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() })
    expect(paid.statusCode).toBe(303)
    expect(paid.headers.location).toBe(`http://localhost:3000/share/${s.unicode}?order=${orderNo}`)
    const row = await orderRow(orderNo)
    expect(row.paymentStatus).toBe('Completed')
    expect(row.feeFen).toBe(100)
    expect(row.sellerIncomeFen).toBe(1900)
    const entries = await ledgerFor(row.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ kind: 'sale', amountFen: 1900 })
    const after = await lookup(orderNo)
    expect(after.json().data.content).toBe(SECRET)
    expect(after.json().data.third_party_trade_no).toBe(row.providerTradeNo)
    // The number alone opens the content but is no proof of being the buyer; the browser's key is.
    expect((await orderRow(orderNo)).firstRevealedAt).toBeNull()
    expect((await lookup(orderNo, { 'x-buyer-key': buyerKey })).json().data.content).toBe(SECRET)
    expect((await orderRow(orderNo)).firstRevealedAt).not.toBeNull()
    const [share] = await t.db.select().from(shares).where(eq(shares.id, s.id))
    expect(share!.purchaseCount).toBe(1)
    // The logged-in buyer also reads it by the share code, and finds the order in their list.
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(buyer) })).json().data.content).toBe(SECRET)
    const mine = await t.app.inject({ url: '/api/orders/list?payment_status=Completed', headers: bearer(buyer) })
    expect((mine.json().data.list as { orderNo: string }[]).map((o) => o.orderNo)).toContain(orderNo)
    const sellers = await t.app.inject({ url: `/api/orders/seller/list?unicode=${s.unicode}`, headers: bearer(seller) })
    expect(sellers.json().data.list[0]).toMatchObject({ orderNo: maskOrderNo(orderNo), payment_status: 'Completed', amount: 20, seller_income: 19 })
  })

  it('rejects a tampered checkout (the amount is signed)', async () => {
    const s = await approvedShare(50)
    const { payUrl } = await createOrder(s.unicode)
    const url = new URL(payUrl!)
    url.searchParams.set('amount', '1')
    expect((await t.app.inject({ url: url.pathname + url.search })).statusCode).toBe(400)
    const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), action: 'pay' })
    const before = await dbFingerprint(t.db)
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/checkout', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() })
    expect(res.statusCode).toBe(400)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('notifications', () => {
  it('a replayed notify changes nothing', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    const n = notify(orderNo, 1000)
    expect((await t.app.inject(n)).body).toBe('success')
    const after = await dbFingerprint(t.db)
    for (let i = 0; i < 3; i++) expect((await t.app.inject(n)).body).toBe('success')
    expect(await dbFingerprint(t.db)).toEqual(after)
  })

  it('racing notifies (replays and distinct events for one order) post exactly one sale', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    const same = notify(orderNo, 1000)
    const distinct = Array.from({ length: 5 }, () => notify(orderNo, 1000))
    const results = await Promise.all([...Array.from({ length: 10 }, () => t.app.inject(same)), ...distinct.map((n) => t.app.inject(n))])
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    const row = await orderRow(orderNo)
    expect(row.paymentStatus).toBe('Completed')
    expect(await ledgerFor(row.id)).toHaveLength(1)
    const [share] = await t.db.select().from(shares).where(eq(shares.id, s.id))
    expect(share!.purchaseCount).toBe(1)
  })

  it('rejects forged and tampered notifies, answering the gateway\'s failure, and changes nothing', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    const before = await dbFingerprint(t.db)
    const good = notify(orderNo, 1000)
    const cases = [
      { ...good, payload: good.payload.replace('"amount_fen":1000', '"amount_fen":1') },
      { ...good, headers: { ...good.headers, 'x-sandbox-signature': 'forged' } },
      { ...good, headers: { ...good.headers, 'x-sandbox-timestamp': String(Date.now() - 10 * 60 * 1000) } },
      notify(orderNo, 1), // correctly signed, wrong amount
      notify('PS20260101000000000000000000', 1000), // unknown order
      { ...good, payload: 'not json' },
    ]
    for (const c of cases) {
      const res = await t.app.inject(c)
      expect(res.statusCode, c.payload).toBe(400)
      expect(res.body).toBe('fail')
    }
    const { inbound_events: _events, ...rest } = await dbFingerprint(t.db)
    const { inbound_events: _before, ...restBefore } = before
    expect(rest).toEqual(restBefore)
    expect((await orderRow(orderNo)).paymentStatus).toBe('Pending')
    expect(await t.db.select().from(inboundEvents).where(eq(inboundEvents.orderNo, orderNo))).toHaveLength(0)
  })

  it('cancel fails the order; a late payment is still honoured; expiry after 30 minutes; a CLOSED after paying is ignored', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    await t.app.inject(notify(orderNo, 1000, false))
    expect((await orderRow(orderNo)).paymentStatus).toBe('Failed')
    await t.app.inject(notify(orderNo, 1000, true))
    expect((await orderRow(orderNo)).paymentStatus).toBe('Completed')
    await t.app.inject(notify(orderNo, 1000, false))
    expect((await orderRow(orderNo)).paymentStatus).toBe('Completed')

    const late = await createOrder(s.unicode)
    await t.db.update(orders).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orders.orderNo, late.orderNo))
    const status = await t.app.inject({ url: `/api/orders/payment-status?orderNo=${late.orderNo}` })
    expect(status.json().data.payment_status).toBe('Failed')
    expect(status.json().data.checkout_url).toBeNull()
    await t.app.inject(notify(late.orderNo, 1000, true))
    expect((await orderRow(late.orderNo)).paymentStatus).toBe('Completed')
  })

  it('asks the gateway when the notify is late (the poll settles a payment the notify never reported)', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    t.app.payments.sandbox!.settle(orderNo, 1000, true) // paid at the gateway, notify lost
    await t.db.update(orders).set({ createdAt: new Date(Date.now() - 10_000) }).where(eq(orders.orderNo, orderNo))
    const res = await t.app.inject({ url: `/api/orders/payment-status?orderNo=${orderNo}` })
    expect(res.json().data.payment_status).toBe('Completed')
    expect(await ledgerFor((await orderRow(orderNo)).id)).toHaveLength(1)
  })
})

describe('abuse', () => {
  it('at most 30 orders per client address per 10 minutes', async () => {
    const s = await approvedShare(1)
    const from = (ip: string) => t.app.inject({ method: 'POST', url: '/api/orders/create', remoteAddress: ip, payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })
    for (let i = 0; i < 30; i++) expect((await from('10.9.9.9')).statusCode).toBe(201)
    const limited = await from('10.9.9.9')
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBeTruthy()
    expect((await from('10.9.9.10')).statusCode).toBe(201)
  })
})

describe('evidence', () => {
  it('records the first reveal when a logged-in buyer reads the share by its code', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode, 'Alipay', buyer)
    await t.app.inject(notify(orderNo, 1000))
    expect((await orderRow(orderNo)).firstRevealedAt).toBeNull()
    const res = await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(buyer) })
    expect(res.json().data.content).toBe(SECRET)
    const first = (await orderRow(orderNo)).firstRevealedAt
    expect(first).not.toBeNull()
    await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(buyer) })
    expect((await orderRow(orderNo)).firstRevealedAt).toEqual(first)
  })
})

describe('refunds', () => {
  it('refunds a completed order once: Refund, a ledger debit, and the content no longer revealed by the order', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    await t.app.inject(notify(orderNo, 1000))
    const refund = () => t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo } })
    expect((await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(seller), payload: { orderNo } })).statusCode).toBe(403)
    const [a, b] = await Promise.all([refund(), refund()])
    expect([a.statusCode, b.statusCode]).toEqual([200, 200])
    const row = await orderRow(orderNo)
    expect(row.paymentStatus).toBe('Refund')
    const entries = await ledgerFor(row.id)
    expect(entries.map((e) => [e.kind, e.amountFen]).sort()).toEqual([
      ['refund', -950],
      ['sale', 950],
    ])
    const after = await lookup(orderNo)
    expect(after.json().data.payment_status).toBe('Refund')
    expect(after.body).not.toContain('open sesame')
    const pending = await createOrder(s.unicode)
    const notRefundable = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: pending.orderNo } })
    expect(notRefundable.statusCode).toBe(409)
  })

  it('lists are scoped: a seller sees only orders of their own shares; admin sees all', async () => {
    const all = await t.app.inject({ url: '/api/orders/admin/list?pageSize=100', headers: bearer(admin) })
    expect(all.json().data.total).toBeGreaterThan(0)
    const buyerAsSeller = await t.app.inject({ url: '/api/orders/seller/list', headers: bearer(buyer) })
    expect(buyerAsSeller.json().data.total).toBe(0)
    expect((await t.app.inject({ url: '/api/orders/admin/list', headers: bearer(seller) })).statusCode).toBe(403)
    expect((await t.app.inject({ url: '/api/orders/list' })).statusCode).toBe(401)
    expect((await t.app.inject({ url: '/api/orders/payment-status?orderNo=abc' })).statusCode).toBe(422)
    expect((await t.app.inject({ url: '/api/orders/admin/list?from=2026-13-45', headers: bearer(admin) })).statusCode).toBe(422)
  })
})

describe('without the sandbox (PAYMENTS_SANDBOX=false) and without credentials', () => {
  it('offers no payment method, and the sandbox routes do not exist', async () => {
    const prod = await buildTestApp({ config: { paymentsSandbox: false } })
    try {
      const sellerToken = await prod.login(DEMO_SELLER.userName, DEMO_PASSWORD)
      const adminToken = await prod.login('admin', ADMIN_PASSWORD)
      const s = (await prod.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(sellerToken), payload: { title: 'x', type: 'text', content: 'y', price: 1 } })).json().data
      await prod.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(adminToken), payload: { id: s.id, status: 'approved' } })
      const before = await dbFingerprint(prod.db)
      for (const paymentMethod of ['Alipay', 'WeChat']) {
        const res = await prod.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: s.unicode, paymentMethod } })
        expect(res.statusCode).toBe(409)
        expect(res.json().msg).toBe('orders.methodUnavailable')
      }
      expect(await dbFingerprint(prod.db)).toEqual(before)
      expect((await prod.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', payload: '{}' })).statusCode).toBe(404)
      expect((await prod.app.inject({ url: '/api/payments/sandbox/checkout?orderNo=x' })).statusCode).toBeGreaterThanOrEqual(400)
    } finally {
      await prod.close()
    }
  })
})

describe('a payment for a share no longer for sale (decision 042)', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })
  const refunds = () => vi.spyOn(t.app.payments.sandbox!, 'refund')
  const purchases = async (shareId: number) => (await t.db.select().from(shares).where(eq(shares.id, shareId)))[0]!.purchaseCount
  const takeDown = (id: number, status: 'violation' | 'reported_invalid' | 'under_review') =>
    t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id, status } })

  /** Recorded as paid, refunded at the gateway under R<orderNo>, sale and refund in the ledger, nothing shown. */
  async function expectRefunded(orderNo: string, shareId: number) {
    const row = await orderRow(orderNo)
    expect(row).toMatchObject({ paymentStatus: 'Refund', feeFen: 50, sellerIncomeFen: 950 })
    expect(row.paidAt).not.toBeNull()
    expect(row.providerTradeNo).toBeTruthy()
    expect(row.refundedAt).not.toBeNull()
    expect((await ledgerFor(row.id)).map((e) => [e.kind, e.amountFen]).sort()).toEqual([
      ['refund', -950],
      ['sale', 950],
    ])
    const byOrder = await lookup(orderNo)
    expect(byOrder.json().data).toMatchObject({ payment_status: 'Refund', third_party_trade_no: '' })
    expect(byOrder.body).not.toContain('open sesame')
    const status = await t.app.inject({ url: `/api/orders/payment-status?orderNo=${orderNo}` })
    expect(status.json().data).toMatchObject({ payment_status: 'Refund', third_party_trade_no: '', checkout_url: null })
    expect(await purchases(shareId)).toBe(0)
  }

  it('a share banned after the order was created: the payment is recorded and refunded, the content not shown', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode, 'Alipay', buyer)
    expect((await takeDown(s.id, 'violation')).statusCode).toBe(200)
    const refund = refunds()
    expect((await t.app.inject(notify(orderNo, 1000))).body).toBe('success')
    expect(refund).toHaveBeenCalledWith(expect.objectContaining({ orderNo, refundNo: `R${orderNo}`, amount: 1000, totalAmount: 1000 }))
    await expectRefunded(orderNo, s.id)
    // The buyer does not read it by the share code either.
    const byCode = await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(buyer) })
    expect(byCode.body).not.toContain('open sesame')
  })

  it('replayed and racing notifies refund once: one sale, one refund, one refund number', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    await takeDown(s.id, 'reported_invalid')
    const refund = refunds()
    const same = notify(orderNo, 1000)
    const distinct = Array.from({ length: 4 }, () => notify(orderNo, 1000))
    const results = await Promise.all([...Array.from({ length: 5 }, () => t.app.inject(same)), ...distinct.map((n) => t.app.inject(n))])
    expect(results.every((r) => r.statusCode === 200 && r.body === 'success')).toBe(true)
    await expectRefunded(orderNo, s.id)
    expect(refund).toHaveBeenCalled()
    expect(new Set(refund.mock.calls.map(([input]) => input.refundNo))).toEqual(new Set([`R${orderNo}`]))
    const after = await dbFingerprint(t.db)
    expect((await t.app.inject(same)).body).toBe('success')
    expect(await dbFingerprint(t.db)).toEqual(after)
  })

  it('a seller banned after the order was created: refunded as well', async () => {
    const other = await createUser(t.db)
    const [share] = await t.db
      .insert(shares)
      .values({ userId: other.id, title: 'Banned seller', unicode: 'BnSe2345', type: 'text', contentEnc: t.app.cipher.encrypt(SECRET), priceFen: 1000, status: 'approved' })
      .returning()
    const { orderNo } = await createOrder(share!.unicode, 'WeChat', buyer)
    const ban = await t.app.inject({ method: 'POST', url: '/api/users/admin/update', headers: bearer(admin), payload: { id: other.id, is_banned: 1 } })
    expect(ban.statusCode, ban.body).toBe(200)
    await t.app.inject(notify(orderNo, 1000))
    await expectRefunded(orderNo, share!.id)
  })

  it('a share the seller deleted after the order was created still sells that order', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode, 'Alipay', buyer)
    expect((await t.app.inject({ url: `/api/shares/delete?id=${s.id}`, headers: bearer(seller) })).statusCode).toBe(200)
    const refund = refunds()
    await t.app.inject(notify(orderNo, 1000))
    expect(refund).not.toHaveBeenCalled()
    expect((await orderRow(orderNo)).paymentStatus).toBe('Completed')
    expect((await lookup(orderNo)).json().data.content).toBe(SECRET)
  })

  it('a payment found by the status poll (notify lost) for a banned share is refunded too', async () => {
    const s = await approvedShare(10)
    const { orderNo } = await createOrder(s.unicode)
    await takeDown(s.id, 'violation')
    t.app.payments.sandbox!.settle(orderNo, 1000, true) // paid at the gateway, notify lost
    await t.db.update(orders).set({ createdAt: new Date(Date.now() - 10_000) }).where(eq(orders.orderNo, orderNo))
    const refund = refunds()
    const res = await t.app.inject({ url: `/api/orders/payment-status?orderNo=${orderNo}` })
    expect(res.json().data.payment_status).toBe('Refund')
    expect(refund).toHaveBeenCalledWith(expect.objectContaining({ refundNo: `R${orderNo}` }))
    await expectRefunded(orderNo, s.id)
  })

  it('a refund the gateway refuses stays owed (content still hidden) and goes through on a replay, the sweep or an admin refund', async () => {
    const s = await approvedShare(10)
    const owed = await Promise.all([createOrder(s.unicode), createOrder(s.unicode), createOrder(s.unicode)])
    await takeDown(s.id, 'violation')
    const refund = refunds().mockRejectedValue(new ProviderError('insufficient merchant balance'))
    const notifies = owed.map((o) => notify(o.orderNo, 1000))
    for (const n of notifies) expect((await t.app.inject(n)).body).toBe('success')
    for (const { orderNo } of owed) {
      const row = await orderRow(orderNo)
      expect(row.paymentStatus).toBe('Refund')
      expect(row.refundedAt).toBeNull()
      expect((await lookup(orderNo)).body).not.toContain('open sesame')
    }
    const failedAdmin = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: owed[2]!.orderNo } })
    expect(failedAdmin.statusCode).toBe(502)
    refund.mockRestore()
    // The gateway retries its notify: the owed refund goes through.
    await t.app.inject(notifies[0]!)
    await expectRefunded(owed[0]!.orderNo, s.id)
    // The minute sweep.
    expect(await finishOwedRefunds(t.db, t.app.payments, refundContext(t.app))).toBeGreaterThanOrEqual(1)
    await expectRefunded(owed[1]!.orderNo, s.id)
    // An admin refund of an owed one (the sweep took it already): answered Refund, no second debit.
    const admins = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: owed[2]!.orderNo } })
    expect(admins.json()).toMatchObject({ code: 200, data: { orderNo: owed[2]!.orderNo, payment_status: 'Refund' } })
    await expectRefunded(owed[2]!.orderNo, s.id)
  })
})

describe('order lists are in date order (issue 13 item 7)', () => {
  it('buyer, seller and admin lists sort by creation time, newest first, the id breaking ties — not by id', async () => {
    const sellerUser = await createUser(t.db)
    const buyerUser = await createUser(t.db)
    const [share] = await t.db
      .insert(shares)
      .values({ userId: sellerUser.id, title: 'Dated', unicode: 'Date2345', type: 'text', contentEnc: t.app.cipher.encrypt(SECRET), priceFen: 100, status: 'approved' })
      .returning()
    // Inserted in this (id) order; 11-23 10:00 and its twin share a time.
    const times = ['2026-11-23T02:00:00Z', '2026-11-18T02:00:00Z', '2026-11-23T01:00:00Z', '2026-11-22T02:00:00Z', '2026-11-23T02:00:00Z']
    const inserted: string[] = []
    for (const at of times) {
      const createdAt = new Date(at)
      const orderNo = newOrderNo(createdAt)
      await t.db.insert(orders).values({
        orderNo,
        shareId: share!.id,
        sellerId: sellerUser.id,
        buyerId: buyerUser.id,
        productName: 'Dated',
        amountFen: 100,
        paymentMethod: 'Alipay',
        provider: 'sandbox',
        paymentStatus: 'Failed',
        expiresAt: new Date(createdAt.getTime() + 30 * 60 * 1000),
        createdAt,
      })
      inserted.push(orderNo)
    }
    const expected = [inserted[4], inserted[0], inserted[2], inserted[3], inserted[1]]
    const listed = async (url: string, token: string) => {
      const res = await t.app.inject({ url, headers: bearer(token) })
      expect(res.statusCode, res.body).toBe(200)
      return (res.json().data.list as { orderNo: string }[]).map((o) => o.orderNo)
    }
    expect(await listed('/api/orders/list', await t.login(buyerUser.userName, buyerUser.password))).toEqual(expected)
    expect(await listed('/api/orders/seller/list', await t.login(sellerUser.userName, sellerUser.password))).toEqual(expected.map((no) => maskOrderNo(no!)))
    expect(await listed('/api/orders/admin/list?unicode=Date2345', admin)).toEqual(expected)
    // Pages continue the same order.
    const token = await t.login(buyerUser.userName, buyerUser.password)
    const pages = [...(await listed('/api/orders/list?pageSize=2&pageNum=1', token)), ...(await listed('/api/orders/list?pageSize=2&pageNum=2', token)), ...(await listed('/api/orders/list?pageSize=2&pageNum=3', token))]
    expect(pages).toEqual(expected)
    // By keyword (decision 098): the product, the buyer's or the seller's name, case-insensitively, in the
    // same order and page by page; `_` is a character, not a wildcard.
    const byKeyword = (keyword: string, page = '') => listed(`/api/orders/admin/list?keyword=${encodeURIComponent(keyword)}${page}`, admin)
    expect(await byKeyword(buyerUser.userName.toUpperCase())).toEqual(expected)
    expect(await byKeyword(sellerUser.userName)).toEqual(expected)
    expect([...(await byKeyword(sellerUser.userName, '&pageSize=3&pageNum=1')), ...(await byKeyword(sellerUser.userName, '&pageSize=3&pageNum=2'))]).toEqual(expected)
    expect(await byKeyword('dated')).toEqual(expected)
    expect(await byKeyword('Dat_d')).toEqual([])
  })
})
