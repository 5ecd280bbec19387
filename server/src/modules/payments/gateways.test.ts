// The whole buying flow through the real gateway adapters and their local fakes: create an order,
// the buyer pays at the (fake) gateway, its signed notify reaches our notify route, the order
// completes and the share lookup reveals the content. Replays, forgeries and wrong amounts change nothing.
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { AlipayGatewayFake } from '../../../test/fakes/alipay-gateway.ts'
import type { NotifyTransport } from '../../../test/fakes/http.ts'
import { WechatPayGatewayFake } from '../../../test/fakes/wechat-gateway.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, type TestApp, bearer, buildTestApp, dbFingerprint } from '../../../test/helpers.ts'
import { orders } from '../../db/schema/index.ts'
import { AlipayProvider } from '../../providers/payments/alipay.ts'
import { WechatPayProvider } from '../../providers/payments/wechat.ts'

const SECRET = 'the paid secret: https://example.com/notes'
const API_PUBLIC_URL = 'https://api.payshare.test'

let t: TestApp
let alipay: AlipayGatewayFake
let wechat: WechatPayGatewayFake
let unicode: string

/** Hands the fake's notify to the app in-process; it must be addressed to our public notify URL. */
function injectInto(app: FastifyInstance): NotifyTransport {
  return async (req) => {
    const url = new URL(req.url)
    if (url.origin !== API_PUBLIC_URL) throw new Error(`notify sent to ${req.url}, not to the API`)
    const res = await app.inject({ method: 'POST', url: url.pathname + url.search, headers: req.headers, payload: req.body })
    return { status: res.statusCode, body: res.body }
  }
}

/**
 * The app's clock: real time, moved on where a test would otherwise wait for it, or held where a test
 * needs an order to stay younger than the status poll's 2 s (back to real time after each test).
 */
let ahead = 0
let held: Date | null = null
const waitOut = (ms: number) => {
  ahead += ms
}
const holdTheClock = () => {
  held = new Date(Date.now() + ahead)
}
afterEach(() => {
  ahead = 0
  held = null
})

beforeAll(async () => {
  ;[alipay, wechat] = await Promise.all([AlipayGatewayFake.start(), WechatPayGatewayFake.start()])
  t = await buildTestApp({
    clock: () => held ?? new Date(Date.now() + ahead),
    config: { apiPublicUrl: API_PUBLIC_URL },
    payments: { alipay: new AlipayProvider(alipay.alipayConfig()), wechat: new WechatPayProvider(wechat.wechatConfig()) },
  })
  alipay.transport = injectInto(t.app)
  wechat.transport = injectInto(t.app)

  const seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/shares/new',
    headers: bearer(seller),
    payload: { title: 'Gateway notes', type: 'text', content: SECRET, price: 12.3 },
  })
  expect(created.statusCode, created.body).toBe(201)
  const share = created.json().data as { id: number; unicode: string }
  const admin = await t.login('admin', ADMIN_PASSWORD)
  const approved = await t.app.inject({
    method: 'POST',
    url: '/api/shares/admin/update',
    headers: bearer(admin),
    payload: { id: share.id, status: 'approved' },
  })
  expect(approved.statusCode, approved.body).toBe(200)
  unicode = share.unicode
})

afterAll(async () => {
  await t?.close()
  await Promise.all([alipay?.stop(), wechat?.stop()])
})

async function createOrder(paymentMethod: 'Alipay' | 'WeChat') {
  const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode, paymentMethod } })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().data as { orderNo: string; payUrl?: string; qrCode?: string }
}

async function paymentStatus(orderNo: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/orders/payment-status?orderNo=${orderNo}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { payment_status: string; third_party_trade_no: string; amount: number }
}

/**
 * The order's status as stored, without asking the gateway: the status poll queries the gateway for
 * orders older than 2 s, which a loaded machine reaches before the test does (and the trade there is paid).
 */
async function storedStatus(orderNo: string) {
  const [row] = await t.db.select({ paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.orderNo, orderNo))
  return row!.paymentStatus
}

async function shareByOrder(orderNo: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/share?third_party_trade_no=${orderNo}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data as { third_party_trade_no: string; payment_status: string; content?: string }
}

/** An Alipay order whose pay page the buyer has opened (the trade exists at the gateway). */
async function openedAlipayOrder() {
  const order = await createOrder('Alipay')
  expect(order.payUrl?.startsWith(`${alipay.gateway}?`)).toBe(true)
  const page = await alipay.open(order.payUrl!)
  expect(page.status, page.html).toBe(200)
  return order
}

describe('Alipay', () => {
  test('create → open the pay page → pay → notify → Completed, and the share lookup reveals the content', async () => {
    const order = await createOrder('Alipay')
    const url = new URL(order.payUrl!)
    expect(url.searchParams.get('notify_url')).toBe(`${API_PUBLIC_URL}/api/payments/alipay/notify`)
    expect(JSON.parse(url.searchParams.get('biz_content')!)).toMatchObject({ out_trade_no: order.orderNo, total_amount: '12.30' })
    const page = await alipay.open(order.payUrl!)
    expect(page.status).toBe(200)
    expect(page.html).toContain('Gateway notes')

    expect(await paymentStatus(order.orderNo)).toMatchObject({ payment_status: 'Pending', third_party_trade_no: '' })
    const before = await shareByOrder(order.orderNo)
    expect(before.third_party_trade_no).toBe('')
    expect(before.content).toBeUndefined()

    const delivery = await alipay.pay(order.orderNo)
    expect(delivery.attempts).toEqual([{ status: 200, body: 'success' }])
    const tradeNo = alipay.trade(order.orderNo).tradeNo
    expect(await paymentStatus(order.orderNo)).toMatchObject({ payment_status: 'Completed', third_party_trade_no: tradeNo, amount: 12.3 })
    expect(await shareByOrder(order.orderNo)).toMatchObject({ payment_status: 'Completed', third_party_trade_no: tradeNo, content: SECRET })
  })

  test('a replayed notify is acknowledged and changes nothing', async () => {
    const order = await openedAlipayOrder()
    await alipay.pay(order.orderNo)
    const before = await dbFingerprint(t.db)
    expect(await alipay.replay(order.orderNo)).toEqual({ status: 200, body: 'success' })
    expect(await dbFingerprint(t.db)).toEqual(before)
    // The same payment under a new notify id is logged as an event but moves no money.
    expect(await alipay.sendNotify(order.orderNo)).toEqual({ status: 200, body: 'success' })
    const { inbound_events: _events, ...after } = await dbFingerprint(t.db)
    const { inbound_events: _eventsBefore, ...rest } = before
    expect(after).toEqual(rest)
  })

  test('a forged or tampered notify is answered `fail` and changes nothing', async () => {
    // However long this takes, the status poll must not ask the gateway (and find it paid there).
    holdTheClock()
    const order = await openedAlipayOrder()
    alipay.trade(order.orderNo).status = 'TRADE_SUCCESS' // paid at the gateway, notify still to come
    const before = await dbFingerprint(t.db)
    expect(await alipay.sendNotify(order.orderNo, { signWith: 'foreign' })).toEqual({ status: 200, body: 'fail' })
    expect(await alipay.sendNotify(order.orderNo, { tamper: { total_amount: '0.01' } })).toEqual({ status: 200, body: 'fail' })
    expect(await alipay.sendNotify(order.orderNo, { fields: { app_id: '2021000000009999' } })).toEqual({ status: 200, body: 'fail' })
    expect(await dbFingerprint(t.db)).toEqual(before)
    expect(await storedStatus(order.orderNo)).toBe('Pending')
  })

  test('a genuinely signed notify with another amount is rejected; the order stays Pending', async () => {
    const order = await openedAlipayOrder()
    const before = await dbFingerprint(t.db)
    const delivery = await alipay.pay(order.orderNo, { fields: { total_amount: '0.01', receipt_amount: '0.01', buyer_pay_amount: '0.01' } })
    expect(delivery.delivered).toBe(false)
    expect(delivery.attempts.every((a) => a.body === 'fail')).toBe(true)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  test('a TRADE_CLOSED notify arriving after the payment does not undo it', async () => {
    const order = await openedAlipayOrder()
    await alipay.pay(order.orderNo)
    expect(await alipay.sendNotify(order.orderNo, { fields: { trade_status: 'TRADE_CLOSED' } })).toEqual({ status: 200, body: 'success' })
    expect((await paymentStatus(order.orderNo)).payment_status).toBe('Completed')
  })

  test('a lost notify: the status poll asks the gateway (alipay.trade.query) and completes the order', async () => {
    const order = await openedAlipayOrder()
    await alipay.pay(order.orderNo, { notify: false })
    waitOut(2100) // the poll only queries orders older than 2 s
    const status = await paymentStatus(order.orderNo)
    expect(status).toMatchObject({ payment_status: 'Completed', third_party_trade_no: alipay.trade(order.orderNo).tradeNo })
    expect(alipay.calls.some((c) => c.method === 'alipay.trade.query' && c.params.biz_content?.includes(order.orderNo))).toBe(true)
  })
})

describe('a payment for a share no longer for sale (decision 042)', () => {
  test('Alipay: paid after the share was banned → recorded, refunded at Alipay under R<orderNo>, the content not shown', async () => {
    const seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const share = (
      await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(seller), payload: { title: 'Soon banned', type: 'text', content: SECRET, price: 12.3 } })
    ).json().data as { id: number; unicode: string }
    await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: share.id, status: 'approved' } })
    const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: share.unicode, paymentMethod: 'Alipay' } })
    const order = res.json().data as { orderNo: string; payUrl: string }
    expect((await alipay.open(order.payUrl)).status).toBe(200)
    await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: share.id, status: 'violation' } })

    const delivery = await alipay.pay(order.orderNo)
    expect(delivery.attempts).toEqual([{ status: 200, body: 'success' }])
    const refunds = [...alipay.trade(order.orderNo).refunds.values()]
    expect(refunds).toEqual([expect.objectContaining({ outRequestNo: `R${order.orderNo}`, amountFen: 1230 })])
    expect(await paymentStatus(order.orderNo)).toMatchObject({ payment_status: 'Refund', third_party_trade_no: '' })
    const lookup = await shareByOrder(order.orderNo)
    expect(lookup).toMatchObject({ payment_status: 'Refund', third_party_trade_no: '' })
    expect(lookup.content).toBeUndefined()
    // Alipay retries its notify: acknowledged, no second refund.
    expect(await alipay.replay(order.orderNo)).toEqual({ status: 200, body: 'success' })
    expect(alipay.trade(order.orderNo).refunds.size).toBe(1)
  })
})

describe('WeChat Pay', () => {
  test('create → pay → notify → Completed, and the share lookup reveals the content', async () => {
    const order = await createOrder('WeChat')
    expect(order.qrCode).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/)
    expect(wechat.trade(order.orderNo)).toMatchObject({ total: 1230, notifyUrl: `${API_PUBLIC_URL}/api/payments/wechat/notify` })
    expect(await paymentStatus(order.orderNo)).toMatchObject({ payment_status: 'Pending', third_party_trade_no: '' })

    const delivery = await wechat.pay(order.orderNo)
    expect(delivery.attempts).toEqual([{ status: 204, body: '' }])
    const tradeNo = wechat.trade(order.orderNo).transactionId
    expect(await paymentStatus(order.orderNo)).toMatchObject({ payment_status: 'Completed', third_party_trade_no: tradeNo })
    expect(await shareByOrder(order.orderNo)).toMatchObject({ payment_status: 'Completed', third_party_trade_no: tradeNo, content: SECRET })
  })

  test('a replayed notification is acknowledged and changes nothing', async () => {
    const order = await createOrder('WeChat')
    await wechat.pay(order.orderNo)
    const before = await dbFingerprint(t.db)
    expect((await wechat.replay(order.orderNo)).status).toBe(204)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  test('forged notifications get 400 {"code":"FAIL"} and change nothing', async () => {
    // However long this takes, the status poll must not ask the gateway (and find it paid there).
    holdTheClock()
    const order = await createOrder('WeChat')
    const trade = wechat.trade(order.orderNo)
    trade.state = 'SUCCESS' // paid at the gateway, notification still to come
    trade.transactionId = '4200000000202611210000000001'
    const before = await dbFingerprint(t.db)
    const now = Math.floor(Date.now() / 1000)
    for (const forged of [
      { signtest: true },
      { signWith: 'foreign' as const },
      { serial: 'PUB_KEY_ID_0000000000000000000000000000' },
      { timestamp: now - 600 },
      { declaredAad: 'other' },
      { transaction: { mchid: '1900000000' } },
      { tamperBody: (b: string) => b.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS ') },
    ]) {
      const answer = await wechat.sendNotify(order.orderNo, forged)
      expect(answer.status, JSON.stringify(Object.keys(forged))).toBe(400)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'FAIL' })
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    expect(await storedStatus(order.orderNo)).toBe('Pending')
  })

  test('a genuinely signed notification with another amount is rejected; the order stays Pending', async () => {
    const order = await createOrder('WeChat')
    const before = await dbFingerprint(t.db)
    const delivery = await wechat.pay(order.orderNo, {
      transaction: { amount: { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' } },
    })
    expect(delivery.delivered).toBe(false)
    expect(delivery.attempts.every((a) => a.status === 400)).toBe(true)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  test('a notification for an Alipay order on the WeChat endpoint is rejected', async () => {
    const alipayOrder = await openedAlipayOrder()
    // A WeChat trade carrying the Alipay order's number (WeChat never saw that order).
    const wechatOrder = await createOrder('WeChat')
    const trade = wechat.trade(wechatOrder.orderNo)
    const before = await dbFingerprint(t.db)
    wechat.trades.set(alipayOrder.orderNo, {
      ...trade,
      outTradeNo: alipayOrder.orderNo,
      state: 'SUCCESS',
      transactionId: '4200000000202611210000000002',
    })
    const answer = await wechat.sendNotify(alipayOrder.orderNo)
    expect(answer.status).toBe(400)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  test('a lost notification: the status poll queries WeChat Pay and completes the order', async () => {
    const order = await createOrder('WeChat')
    await wechat.pay(order.orderNo, { notify: false })
    waitOut(2100)
    expect(await paymentStatus(order.orderNo)).toMatchObject({
      payment_status: 'Completed',
      third_party_trade_no: wechat.trade(order.orderNo).transactionId,
    })
  })
})
