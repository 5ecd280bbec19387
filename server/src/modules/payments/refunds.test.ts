// Refunds end to end (issue 7; decisions 057, 058): the admin refund debits the seller's ledger at
// once, a WeChat refund answered PROCESSING is followed up — by its signed refund notification or by
// the minute sweep's refund query — until the gateway says it is final, and replays, forgeries and
// racing admins change nothing twice. Through the real WeChat Pay adapter and its local fake.
import type { FastifyInstance } from 'fastify'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { NotifyTransport } from '../../../test/fakes/http.ts'
import { WechatPayGatewayFake } from '../../../test/fakes/wechat-gateway.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp } from '../../../test/helpers.ts'
import { ledgerEntries, orders, shares, withdrawals } from '../../db/schema/index.ts'
import { WechatPayProvider } from '../../providers/payments/wechat.ts'
import { postWithdrawal, unsettledFen, withdrawableFen } from '../ledger/service.ts'
import { newUnicode } from '../shares/rules.ts'
import { finishOwedRefunds, refundContext } from '../orders/settlement.ts'

const API_PUBLIC_URL = 'https://api.payshare.test'
const REFUND_NOTIFY = `${API_PUBLIC_URL}/api/payments/wechat/refund-notify`
const HOUR = 3600_000

let t: TestApp
let wechat: WechatPayGatewayFake
let admin: string
/** The app's clock: moved by the tests (the gateway fake's signatures use the real time). */
let now = Date.now()

/** Hands the fake's notifications to the app in-process; they must be addressed to our public URLs. */
function injectInto(app: FastifyInstance): NotifyTransport {
  return async (req) => {
    const url = new URL(req.url)
    if (url.origin !== API_PUBLIC_URL) throw new Error(`notify sent to ${req.url}, not to the API`)
    const res = await app.inject({ method: 'POST', url: url.pathname, headers: req.headers, payload: req.body })
    return { status: res.statusCode, body: res.body }
  }
}

beforeAll(async () => {
  wechat = await WechatPayGatewayFake.start()
  t = await buildTestApp({
    config: { apiPublicUrl: API_PUBLIC_URL, seedDemo: false },
    payments: { wechat: new WechatPayProvider(wechat.wechatConfig()) },
    clock: () => new Date(now),
  })
  wechat.transport = injectInto(t.app)
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(async () => {
  await t?.close()
  await wechat?.stop()
})
beforeEach(() => {
  wechat.refundStatus = 'PROCESSING'
})

/** A seller of their own (a clean ledger) with an approved share at ¥10.00 (fee 5 %: income ¥9.50). */
async function sellerWithShare() {
  const seller = await createUser(t.db)
  const unicode = newUnicode()
  const [share] = await t.db
    .insert(shares)
    .values({ userId: seller.id, title: 'Refundable notes', unicode, type: 'text', contentEnc: t.app.cipher.encrypt('secret'), priceFen: 1000, status: 'approved' })
    .returning()
  return { sellerId: seller.id, share: share! }
}

/** A WeChat order paid at the (fake) gateway, its notification applied: Completed at the app's `now`. */
async function paidOrder(unicode: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), payload: { unicode, paymentMethod: 'WeChat' } })
  expect(res.statusCode, res.body).toBe(201)
  const { orderNo } = res.json().data as { orderNo: string }
  const delivery = await wechat.pay(orderNo)
  expect(delivery.attempts).toEqual([{ status: 204, body: '' }])
  expect((await orderRow(orderNo)).paymentStatus).toBe('Completed')
  return orderNo
}

const orderRow = async (orderNo: string) => (await t.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
const refundEntries = async (orderNo: string) =>
  t.db
    .select({ amountFen: ledgerEntries.amountFen, availableAt: ledgerEntries.availableAt })
    .from(ledgerEntries)
    .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
    .where(and(eq(orders.orderNo, orderNo), eq(ledgerEntries.kind, 'refund')))
const adminRefund = (orderNo: string) => t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo } })
/** The order's audit trail (issue 9): [action, from, to, by a person?], oldest first. */
async function trailOf(orderNo: string) {
  const res = await t.app.inject({ url: `/api/audit/admin/list?subject=order:${(await orderRow(orderNo)).id}`, headers: bearer(admin) })
  return (res.json().data.list as { action: string; from: string | null; to: string | null; actor: unknown }[]).map((e) => [e.action, e.from, e.to, e.actor !== null])
}
const sweep = () => finishOwedRefunds(t.db, t.app.payments, refundContext(t.app))
/** Gateway calls about one refund: its requests (POST) and its queries (GET). */
const refundCalls = (refundNo: string) => ({
  created: wechat.calls.filter((c) => c.method === 'POST' && c.path === '/v3/refund/domestic/refunds' && (c.body as { out_refund_no?: string }).out_refund_no === refundNo),
  queried: wechat.calls.filter((c) => c.method === 'GET' && c.path === `/v3/refund/domestic/refunds/${refundNo}`),
})
async function adminListed(query: string) {
  const res = await t.app.inject({ url: `/api/orders/admin/list?${query}`, headers: bearer(admin) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data.list as { orderNo: string; payment_status: string; refund_state: string | null }[]
}

describe('the ledger debit of a refund', () => {
  test('a settled sale refunded by an admin is debited at once, even while the gateway is still PROCESSING — the withdrawable may go negative', async () => {
    const { sellerId, share } = await sellerWithShare()
    const paidAt = now
    const orderNo = await paidOrder(share.unicode)
    now += 25 * HOUR // past the 24 h settlement delay
    expect(await withdrawableFen(t.db, sellerId, new Date(now))).toBe(950)
    // The seller takes the money out (the withdrawal's own rules are the withdrawals area's).
    await t.db.transaction(async (tx) => {
      const [w] = await tx
        .insert(withdrawals)
        .values({ userId: sellerId, amountFen: 950, feeFen: 10, actualFen: 940, alipayAccount: 'seller@example.com', alipayRealName: '张三' })
        .returning()
      await postWithdrawal(tx, w!, new Date(now))
    })
    expect(await withdrawableFen(t.db, sellerId, new Date(now))).toBe(0)

    const res = await adminRefund(orderNo)
    expect(res.json()).toMatchObject({ code: 200, msg: 'orders.refundPending', data: { orderNo, payment_status: 'Refund', refund_state: 'pending' } })
    expect(await orderRow(orderNo)).toMatchObject({ paymentStatus: 'Refund', refundedAt: null })
    // The refund carries its sale's available_at (decision 111): settled with it, so debited at once.
    expect(await refundEntries(orderNo)).toEqual([{ amountFen: -950, availableAt: new Date(paidAt + 24 * HOUR) }])
    expect(await withdrawableFen(t.db, sellerId, new Date(now))).toBe(-950)
    expect(await unsettledFen(t.db, sellerId, new Date(now))).toBe(0)
  })

  test('a sale refunded inside its settlement delay is taken back from the unsettled income: it never becomes withdrawable', async () => {
    const { sellerId, share } = await sellerWithShare()
    const paidAt = now
    const orderNo = await paidOrder(share.unicode)
    expect(await unsettledFen(t.db, sellerId, new Date(now))).toBe(950)
    now += HOUR
    wechat.refundStatus = 'SUCCESS'
    expect((await adminRefund(orderNo)).json()).toMatchObject({ msg: 'orders.refunded', data: { refund_state: 'done' } })
    expect((await orderRow(orderNo)).refundedAt).toEqual(new Date(now))
    // The debit is available when the sale would have been: they cancel inside "unsettled".
    expect(await refundEntries(orderNo)).toEqual([{ amountFen: -950, availableAt: new Date(paidAt + 24 * HOUR) }])
    expect(await unsettledFen(t.db, sellerId, new Date(now))).toBe(0)
    expect(await withdrawableFen(t.db, sellerId, new Date(now))).toBe(0)
    now += 24 * HOUR
    expect(await unsettledFen(t.db, sellerId, new Date(now))).toBe(0)
    expect(await withdrawableFen(t.db, sellerId, new Date(now))).toBe(0)
  })
})

describe('a WeChat refund answered PROCESSING', () => {
  test('the sweep asks the gateway (no second refund request) and sets refunded_at once, on SUCCESS', async () => {
    const { share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    const refundNo = `R${orderNo}`
    await adminRefund(orderNo)
    expect(refundCalls(refundNo).created).toHaveLength(1)
    expect(refundCalls(refundNo).created[0]!.body).toMatchObject({ notify_url: REFUND_NOTIFY, amount: { refund: 1000, total: 1000 } })
    expect((await adminListed(`orderNo=${orderNo}`))[0]).toMatchObject({ payment_status: 'Refund', refund_state: 'pending' })

    now += 60_000
    expect(await sweep()).toBe(0)
    expect(refundCalls(refundNo)).toMatchObject({ created: { length: 1 }, queried: { length: 1 } })
    expect((await orderRow(orderNo)).refundedAt).toBeNull()

    await wechat.finishRefund(refundNo, 'SUCCESS', { notify: false }) // the notification is lost
    now += 60_000
    const confirmedAt = new Date(now)
    expect(await sweep()).toBeGreaterThanOrEqual(1)
    expect(refundCalls(refundNo)).toMatchObject({ created: { length: 1 }, queried: { length: 2 } })
    expect((await orderRow(orderNo)).refundedAt).toEqual(confirmedAt)
    expect((await adminListed(`orderNo=${orderNo}`))[0]!.refund_state).toBe('done')

    // Later sweeps and admin clicks leave it alone: no gateway call, the same refunded_at, one debit.
    now += 60_000
    await sweep()
    expect((await adminRefund(orderNo)).json()).toMatchObject({ msg: 'orders.refunded', data: { refund_state: 'done' } })
    expect(refundCalls(refundNo)).toMatchObject({ created: { length: 1 }, queried: { length: 2 } })
    expect((await orderRow(orderNo)).refundedAt).toEqual(confirmedAt)
    expect(await refundEntries(orderNo)).toHaveLength(1)
  })

  test('its REFUND.SUCCESS notification confirms it; the notification replayed twice changes nothing', async () => {
    const { share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    const refundNo = `R${orderNo}`
    await adminRefund(orderNo)
    now += 60_000
    const delivery = await wechat.finishRefund(refundNo, 'SUCCESS')
    expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 204, body: '' }] })
    expect((await orderRow(orderNo)).refundedAt).toEqual(new Date(now))
    const before = await dbFingerprint(t.db)
    now += 60_000
    expect((await wechat.replayRefund(refundNo)).status).toBe(204)
    expect((await wechat.replayRefund(refundNo)).status).toBe(204)
    expect(await dbFingerprint(t.db)).toEqual(before)
    // The order's audit trail (issue 9): the admin's refund, then the gateway's confirmation (no actor), once.
    expect(await trailOf(orderNo)).toEqual([
      ['refund', 'Completed', 'refund_pending', true],
      ['refund_confirmed', 'refund_pending', 'refunded', false],
    ])
  })

  test('forged or tampered refund notifications are refused (400) and change nothing; the refund stays pending', async () => {
    const { share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    const refundNo = `R${orderNo}`
    await adminRefund(orderNo)
    await wechat.finishRefund(refundNo, 'SUCCESS', { notify: false })
    const before = await dbFingerprint(t.db)
    const ts = Math.floor(Date.now() / 1000)
    for (const forged of [
      { signWith: 'foreign' as const },
      { signtest: true },
      { serial: 'PUB_KEY_ID_0000000000000000000000000000' },
      { timestamp: ts - 600 },
      { declaredAad: 'transaction' },
      { tamperBody: (b: string) => b.replace('"REFUND.SUCCESS"', '"REFUND.SUCCESS" ') },
      { transaction: { mchid: '1900000000' } },
      // Genuinely signed, but not this order's full refund, or about an order we do not have.
      { transaction: { amount: { total: 1000, refund: 1, payer_total: 1000, payer_refund: 1 } } },
      { transaction: { out_trade_no: 'PS00000000000000000000000000' } },
    ]) {
      const answer = await wechat.sendRefundNotify(refundNo, forged)
      expect(answer.status, JSON.stringify(Object.keys(forged))).toBe(400)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'FAIL' })
    }
    // A genuine payment notification sent to the refund URL is not a refund.
    const payment = wechat.notifyLog.findLast((l) => l.orderNo === orderNo && l.sent.url.endsWith('/wechat/notify'))!.sent
    const misrouted = await t.app.inject({ method: 'POST', url: '/api/payments/wechat/refund-notify', headers: payment.headers, payload: payment.body })
    expect(misrouted.statusCode).toBe(400)
    expect(await dbFingerprint(t.db)).toEqual(before)
    expect((await orderRow(orderNo)).refundedAt).toBeNull()
    // Only the gateways that report refunds have the URL.
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/refund-notify', payload: '{}' })).statusCode).toBe(404)
  })

  test('CLOSED / ABNORMAL: the refund is failed, shown to admins, left by the sweep; an admin asks again once it is handled', async () => {
    const { share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    const refundNo = `R${orderNo}`
    await adminRefund(orderNo)
    expect((await wechat.finishRefund(refundNo, 'ABNORMAL'))?.delivered).toBe(true)
    expect(await orderRow(orderNo)).toMatchObject({ paymentStatus: 'Refund', refundedAt: null, refundFailure: 'ABNORMAL' })
    expect((await adminListed('refund_state=failed&pageSize=100')).map((o) => o.orderNo)).toContain(orderNo)
    expect((await adminListed('refund_state=pending&pageSize=100')).map((o) => o.orderNo)).not.toContain(orderNo)

    const queried = refundCalls(refundNo).queried.length
    await sweep()
    expect(refundCalls(refundNo).queried).toHaveLength(queried)
    // Asking again while it is still abnormal: refused, still failed, the debit still once.
    const still = await adminRefund(orderNo)
    expect(still.statusCode).toBe(502)
    expect(still.json().msg).toBe('orders.refundFailed')
    expect(refundCalls(refundNo)).toMatchObject({ created: { length: 1 }, queried: { length: queried + 1 } })
    // The merchant handles the abnormal refund at WeChat Pay; the admin asks again.
    wechat.refundOf(refundNo).refund.status = 'SUCCESS'
    expect((await adminRefund(orderNo)).json()).toMatchObject({ code: 200, data: { refund_state: 'done' } })
    expect(await orderRow(orderNo)).toMatchObject({ refundedAt: new Date(now), refundFailure: null })
    expect(await refundEntries(orderNo)).toHaveLength(1)
    expect(await trailOf(orderNo)).toEqual([
      ['refund', 'Completed', 'refund_pending', true],
      ['refund_failed', 'refund_pending', 'refund_failed', false],
      ['refund_confirmed', 'refund_failed', 'refunded', true],
    ])
  })

  test('a notification of a refund this service did not request is acknowledged and applied to nothing', async () => {
    const { share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    await adminRefund(orderNo)
    const answer = await wechat.sendRefundNotify(`R${orderNo}`, { transaction: { out_refund_no: 'MANUAL1', refund_status: 'SUCCESS' } })
    expect(answer.status).toBe(204)
    expect((await orderRow(orderNo)).refundedAt).toBeNull()
  })
})

describe('racing admins and a payment for a share no longer for sale', () => {
  test('concurrent admin refunds of one order refund once at the gateway (one out_refund_no) and debit once', async () => {
    const { sellerId, share } = await sellerWithShare()
    const orderNo = await paidOrder(share.unicode)
    const answers = await Promise.all(Array.from({ length: 6 }, () => adminRefund(orderNo)))
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200))
    expect(answers.every((a) => a.json().data.refund_state === 'pending')).toBe(true)
    expect(wechat.trade(orderNo).refunds.size).toBe(1)
    const requested = wechat.calls.filter((c) => c.method === 'POST' && c.path === '/v3/refund/domestic/refunds' && (c.body as { out_trade_no?: string }).out_trade_no === orderNo)
    expect(new Set(requested.map((c) => (c.body as { out_refund_no: string }).out_refund_no))).toEqual(new Set([`R${orderNo}`]))
    expect(await refundEntries(orderNo)).toHaveLength(1)
    expect(await unsettledFen(t.db, sellerId, new Date(now))).toBe(0)
  })

  test('a payment for a banned share: refunded with a notify_url; a refund request that failed is made by the sweep (query first: NOT_FOUND)', async () => {
    const { share } = await sellerWithShare()
    const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), payload: { unicode: share.unicode, paymentMethod: 'WeChat' } })
    const { orderNo } = res.json().data as { orderNo: string }
    const refundNo = `R${orderNo}`
    await t.db.update(shares).set({ status: 'violation' }).where(eq(shares.id, share.id))
    wechat.failNext('/v3/refund/domestic/refunds', { status: 500, code: 'SYSTEM_ERROR' })
    expect((await wechat.pay(orderNo)).attempts).toEqual([{ status: 204, body: '' }])
    expect(await orderRow(orderNo)).toMatchObject({ paymentStatus: 'Refund', refundedAt: null, refundFailure: null })
    expect(wechat.trade(orderNo).refunds.size).toBe(0)

    now += 60_000
    await sweep()
    expect(refundCalls(refundNo).queried.length).toBeGreaterThanOrEqual(2)
    expect(wechat.trade(orderNo).refunds.size).toBe(1)
    expect(refundCalls(refundNo).created.at(-1)!.body).toMatchObject({ notify_url: REFUND_NOTIFY, amount: { refund: 1000, total: 1000 } })
    await wechat.finishRefund(refundNo, 'SUCCESS')
    expect((await orderRow(orderNo)).refundedAt).toEqual(new Date(now))
  })
})
