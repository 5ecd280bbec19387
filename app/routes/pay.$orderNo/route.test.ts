// The pay page of any order: where it sends the browser by the order's state and payment method.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type DataOf } from '#contract/http.ts'
import { ordersApi } from '#contract/orders.ts'
import { args, get, settle, statusOf } from '../../../tests/support/console.ts'
import { loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const ORDER_NO = 'PS20261123000000123456789012'
const PENDING = {
  orderNo: ORDER_NO,
  unicode: null,
  product_type: 'package',
  product_name: 'Monthly',
  payment_status: 'Pending',
  paymentMethod: 'WeChat',
  amount: 19.9,
  third_party_trade_no: '',
  expires_at: '2026-11-23T00:30:00.000Z',
  checkout_url: 'weixin://wxpay/bizpayurl?pr=abc',
  return_path: `/subscription-manage/package-list?order=${ORDER_NO}`,
} satisfies DataOf<typeof ordersApi.paymentStatus>
const answer = (over: Record<string, unknown> = {}) => stub.on(ordersApi.paymentStatus, { data: { ...PENDING, ...over } })
const load = async (orderNo = ORDER_NO) => settle(() => loader(args(get(`/pay/${orderNo}`), { orderNo })))

beforeEach(() => stub.reset())

describe('/pay/ORDER', () => {
  it('WeChat, pending: the QR code page, private', async () => {
    answer()
    const res = statusOf(await load())
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const d = res.data as { qr: string; done: string; amount: number; product: string }
    expect(d.qr).toContain('<svg')
    expect(d).toMatchObject({ done: PENDING.return_path, amount: 19.9, product: 'Monthly' })
  })

  it('paid, failed or refunded: on to the order\'s own page', async () => {
    for (const payment_status of ['Completed', 'Failed', 'Refund']) {
      answer({ payment_status, checkout_url: null })
      expect(statusOf(await load()).headers.get('location')).toBe(PENDING.return_path)
    }
  })

  it('Alipay (or the sandbox), pending: the gateway\'s pay page', async () => {
    answer({ paymentMethod: 'Alipay', checkout_url: 'https://openapi.alipay.com/gateway.do?x=1' })
    expect(statusOf(await load()).headers.get('location')).toBe('https://openapi.alipay.com/gateway.do?x=1')
  })

  it('never sends the browser off-site by a return path', async () => {
    answer({ payment_status: 'Completed', checkout_url: null, return_path: '//evil.test/x' })
    expect(statusOf(await load()).headers.get('location')).toBe('/')
    answer({ payment_status: 'Completed', checkout_url: null, return_path: 'https://evil.test/' })
    expect(statusOf(await load()).headers.get('location')).toBe('/')
  })

  it('a malformed or unknown order number: 404', async () => {
    expect(statusOf(await load('PS123')).status).toBe(404)
    stub.on(ordersApi.paymentStatus, { code: 404, msg: 'orders.notFound' })
    expect(statusOf(await load()).status).toBe(404)
  })
})
