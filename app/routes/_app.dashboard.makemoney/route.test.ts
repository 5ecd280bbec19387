// The make-money page's open form: where it sends the browser, and how a refusal reads.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type DataOf } from '#contract/http.ts'
import { usersApi } from '#contract/users.ts'
import { ordersApi } from '#contract/orders.ts'
import { channelsApi } from '#contract/channels.ts'
import { args, get, post, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { action, loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const ORDER_NO = 'PS20261123000000123456789012'
const TERMS = { default_fee_rate: 5, settlement_delay_hours: 24, withdrawal_minimum: 10, withdrawal_fee_rate: 1, withdrawal_fee_minimum: 0.1 }
const LIST = {
  list: [{ id: 4, name: 'Pro', price: 49.9, fee_rate: 2, minimum_income: 500, service_duration: 30, eligible: false, open_until: null }],
  total: 1,
  pageNum: 1,
  pageSize: 100,
  account: { fee_rate: 5, default_fee_rate: 5, open: [], last_month: '2026-10', last_month_income: 12.5 },
}
const STATUS = {
  orderNo: ORDER_NO,
  unicode: null,
  product_type: 'channel',
  product_name: 'Pro',
  payment_status: 'Completed',
  paymentMethod: 'Alipay',
  amount: 49.9,
  third_party_trade_no: 'T1',
  expires_at: '2026-11-23T00:30:00.000Z',
  checkout_url: null,
  return_path: `/dashboard/makemoney?order=${ORDER_NO}`,
} satisfies DataOf<typeof ordersApi.paymentStatus>

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture() })
  stub.on(channelsApi.terms, { data: TERMS })
  stub.on(channelsApi.list, { data: LIST })
})

const open = async (fields: Record<string, string>) => statusOf(await settle(async () => action(args(post('/dashboard/makemoney', fields, { cookie: await sessionCookie('tok') })))))

describe('opening a channel from the make-money page', () => {
  it('Alipay (and the sandbox): on to the gateway\'s pay page', async () => {
    stub.on(channelsApi.open, { code: 201, data: { orderNo: ORDER_NO, payUrl: 'https://gateway.test/pay?o=1' } })
    const res = await open({ id: '4', paymentMethod: 'Alipay' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://gateway.test/pay?o=1')
    expect(stub.callsTo(channelsApi.open)[0]?.body).toEqual({ id: 4, paymentMethod: 'Alipay' })
  })

  it('WeChat: our QR page, loaded as a whole document', async () => {
    stub.on(channelsApi.open, { code: 201, data: { orderNo: ORDER_NO, qrCode: 'weixin://wxpay/bizpayurl?pr=x', payUrl: 'weixin://wxpay/bizpayurl?pr=x' } })
    const res = await open({ id: '4', paymentMethod: 'WeChat' })
    expect(res.headers.get('location')).toBe(`/pay/${ORDER_NO}`)
    expect(res.headers.get('X-Remix-Reload-Document')).toBe('true')
  })

  it('a refusal below the minimum is stated on the channel, with the amounts', async () => {
    stub.on(channelsApi.open, { code: 409, msg: 'channels.belowMinimum', data: { minimum_income: 500, last_month_income: 12.5, last_month: '2026-10' } })
    const res = await open({ id: '4', paymentMethod: 'Alipay' })
    expect(res.status).toBe(400)
    expect(res.data).toEqual({ channelId: 4, error: 'channels.belowMinimum', values: { minimum: '¥500.00', income: '¥12.50', month: '2026-10' } })
  })

  it('no payment method or a forged one: asked to choose, nothing sent', async () => {
    expect((await open({ id: '4' })).data).toEqual({ channelId: 4, error: 'channels.make.chooseMethod' })
    expect((await open({ id: '4', paymentMethod: 'Bitcoin' })).status).toBe(400)
    expect(stub.count(channelsApi.open)).toBe(0)
  })

  it('the gateway down (502): its own message, no "Confirm logout"', async () => {
    stub.on(channelsApi.open, { code: 502, msg: 'orders.gatewayError' })
    const res = await open({ id: '4', paymentMethod: 'Alipay' })
    expect(res.data).toEqual({ channelId: 4, error: 'channels.make.gatewayError' })
  })
})

describe('back from paying (?order=)', () => {
  it('shows a channel order\'s state; ignores an order of another product or an unknown number', async () => {
    const load = async (q: string) => (await loader(args(get(`/dashboard/makemoney${q}`, await sessionCookie('tok'))))) as { order: unknown }
    stub.on(ordersApi.paymentStatus, { data: STATUS })
    expect((await load(`?order=${ORDER_NO}`)).order).toEqual({ orderNo: ORDER_NO, payment_status: 'Completed', product_name: 'Pro', paymentMethod: 'Alipay' })
    stub.on(ordersApi.paymentStatus, { data: { ...STATUS, product_type: 'share', unicode: 'AbCd2345' } })
    expect((await load(`?order=${ORDER_NO}`)).order).toBeNull()
    stub.on(ordersApi.paymentStatus, { code: 404, msg: 'orders.notFound' })
    expect((await load(`?order=${ORDER_NO}`)).order).toBeNull()
    expect((await load('?order=junk')).order).toBeNull()
  })
})
