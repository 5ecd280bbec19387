// The share page shows paid content: neither it nor its data request may be kept by a cache.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type DataOf } from '#contract/http.ts'
import { subscriptionsApi } from '#contract/subscriptions.ts'
import { shareApi } from '#contract/shares.ts'
import { ordersApi } from '#contract/orders.ts'
import { linksApi } from '#contract/links.ts'
import { args, get, ORIGIN, post, sessionCookie, settle, statusOf } from '../../../tests/support/console.ts'
import { action, headers, loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())

const SHARE = {
  id: 3,
  unicode: 'AbCd2345',
  title: 'Notes',
  type: 'text',
  price: 9.9,
  user_name: 'seller',
  visit_count: 1,
  purchase_count: 1,
  status: 'approved',
  subscription_status: 'close',
  created_at: '2026-11-01T00:00:00.000Z',
  for_sale: true,
} satisfies DataOf<typeof shareApi.lookup>
const ORDER_NO = 'PS20261123000000123456789012'

afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(shareApi.lookup, ({ query }) =>
    query.get('third_party_trade_no') ? { data: { ...SHARE, content: 'the secret', extraction_code: null, payment_status: 'Completed' as const, third_party_trade_no: 'T1' } } : { data: SHARE },
  )
})

describe('/share/CODE', () => {
  it('with a paid order: the content, sent private and not stored', async () => {
    const res = statusOf(await loader(args(get(`/share/AbCd2345?order=${ORDER_NO}`), { unicode: 'AbCd2345' })))
    expect((res.data as { content: { content: string } }).content.content).toBe('the secret')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    // The document and the data request take their headers from the route's `headers`.
    expect(new Headers(headers({ loaderHeaders: res.headers, parentHeaders: new Headers(), actionHeaders: new Headers(), errorHeaders: undefined })).get('cache-control')).toBe(
      'private, no-store',
    )
  })

  it('a JSON body posted to the buy form is a 400', async () => {
    const request = new Request(`${ORIGIN}/share/AbCd2345`, { method: 'POST', headers: { host: 'console.test', origin: ORIGIN, 'content-type': 'application/json' }, body: '{}' })
    expect(statusOf(await settle(() => action(args(request, { unicode: 'AbCd2345' })))).status).toBe(400)
    expect(stub.count(ordersApi.create)).toBe(0)
  })

  it('the API down: 503 "temporarily unavailable", not a 500', async () => {
    await stub.down()
    const res = statusOf(await settle(() => loader(args(get('/share/AbCd2345'), { unicode: 'AbCd2345' }))))
    expect(res.status).toBe(503)
    await stub.up()
  })
})

describe('/share/CODE: the buyer key of the browser that paid (decision 102)', () => {
  const KEY = 'AbCdEfGhIjKlMnOpQrSt_-'
  const lookups = () => stub.callsTo(shareApi.lookup).filter((c) => c.query.get('third_party_trade_no'))

  it('buying keeps the key in the purchase cookie only; the page then proves the browser with it, in a header', async () => {
    stub.on(ordersApi.create, { code: 201, data: { orderNo: ORDER_NO, buyerKey: KEY, payUrl: 'http://127.0.0.1:4000/api/payments/sandbox/checkout?x=1' } })
    const bought = statusOf(await settle(() => action(args(post('/share/AbCd2345', { paymentMethod: 'Alipay' }), { unicode: 'AbCd2345' }))))
    expect(bought.headers.get('location')).not.toContain(KEY)
    const setCookie = bought.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^ps_orders=.*HttpOnly/i)
    const cookie = setCookie.split(';')[0]!
    const page = statusOf(await loader(args(get('/share/AbCd2345', cookie), { unicode: 'AbCd2345' })))
    expect(page.data).toMatchObject({ order: { orderNo: ORDER_NO, status: 'Completed', chat: true } })
    const [lookup] = lookups()
    expect([lookup!.query.get('third_party_trade_no'), lookup!.headers['x-buyer-key'], lookup!.query.toString().includes(KEY)]).toEqual([ORDER_NO, KEY, false])
    // A link with another order number: shown, without the key, and the keyed purchase stays.
    stub.calls.length = 0
    const other = 'PS20261123000000999999999999'
    const linked = statusOf(await loader(args(get(`/share/AbCd2345?order=${other}`, cookie), { unicode: 'AbCd2345' })))
    expect(linked.data).toMatchObject({ order: { orderNo: other, chat: false } })
    expect(lookups()[0]!.headers['x-buyer-key']).toBeUndefined()
    expect(linked.headers.get('set-cookie') ?? '').not.toContain('ps_orders')
  })

  it('a signed-in buyer without the purchase in this browser: its order and its chat through the account', async () => {
    stub.on(shareApi.lookup, () => ({ data: { ...SHARE, content: 'the secret', extraction_code: null, buyer_order_no: ORDER_NO } }))
    const page = statusOf(await loader(args(get('/share/AbCd2345', await sessionCookie('tok')), { unicode: 'AbCd2345' })))
    expect(page.data).toMatchObject({ content: { content: 'the secret' }, order: { orderNo: ORDER_NO, status: 'Completed', chat: true } })
    expect((page.data as { share: Record<string, unknown> }).share).not.toHaveProperty('buyer_order_no')
  })
})

describe('/share/CODE: a subscriber\'s free unlock', () => {
  it('the loader passes on the free unlocks left; none once the content is shown', async () => {
    stub.on(shareApi.lookup, () => ({ data: { ...SHARE, subscription_status: 'open' as const, free_unlocks_left: 2 } }))
    const cookie = await sessionCookie('tok')
    const res = statusOf(await loader(args(get('/share/AbCd2345', cookie), { unicode: 'AbCd2345' })))
    expect((res.data as { unlock: unknown }).unlock).toEqual({ left: 2 })
    stub.on(shareApi.lookup, () => ({ data: { ...SHARE, content: 'the secret', extraction_code: null } }))
    const after = statusOf(await loader(args(get('/share/AbCd2345?unlocked=1', cookie), { unicode: 'AbCd2345' })))
    expect(after.data).toMatchObject({ unlock: null, unlocked: true })
  })

  it('unlocks through the API and shows the page again (POST, without JavaScript)', async () => {
    stub.on(subscriptionsApi.unlock, { data: { ...SHARE, content: 'the secret', extraction_code: null, orderNo: ORDER_NO, already: false, remaining_today: 1 } })
    const request = post('/share/AbCd2345', { intent: 'unlock' }, { cookie: await sessionCookie('tok') })
    const res = statusOf(await settle(() => action(args(request, { unicode: 'AbCd2345' }))))
    expect(res.headers.get('location')).toBe('/share/AbCd2345?unlocked=1')
    const call = stub.callsTo(subscriptionsApi.unlock)[0]!
    expect(call.body).toEqual({ unicode: 'AbCd2345' })
    expect(call.headers.authorization).toBe('Bearer tok')
    expect(stub.count(ordersApi.create)).toBe(0)
  })

  it('the limit reached meanwhile: the API\'s reason on the page; signed out: asked to log in, the API not called', async () => {
    stub.on(subscriptionsApi.unlock, { code: 409, msg: 'subscriptions.limitReached', data: { daily_limit: 3 } })
    const cookie = await sessionCookie('tok')
    const refused = statusOf(await settle(() => action(args(post('/share/AbCd2345', { intent: 'unlock' }, { cookie }), { unicode: 'AbCd2345' }))))
    expect(refused).toMatchObject({ status: 400, data: { error: 'subscriptions.limitReached', intent: 'unlock' } })
    stub.reset()
    const anonymous = statusOf(await settle(() => action(args(post('/share/AbCd2345', { intent: 'unlock' }), { unicode: 'AbCd2345' }))))
    expect(anonymous).toMatchObject({ status: 400, data: { error: 'subscriptions.unlock.loginFirst' } })
    expect(stub.count(subscriptionsApi.unlock)).toBe(0)
  })
})

describe('/share/CODE: the buyer of a dead link (issue 25)', () => {
  const KEY = 'AbCdEfGhIjKlMnOpQrSt_-'
  const NOTICE = { seller_told_at: '2026-11-20T00:00:00.000Z', order_no: ORDER_NO, refund: 'available' as const, refund_due_at: '2026-11-22T00:00:00.000Z' }

  it('shows the notice of the order lookup, and asks the refund as the browser that paid (POST, without JavaScript)', async () => {
    stub.on(ordersApi.create, { code: 201, data: { orderNo: ORDER_NO, buyerKey: KEY, payUrl: 'http://127.0.0.1:4000/api/payments/sandbox/checkout?x=1' } })
    const bought = statusOf(await settle(() => action(args(post('/share/AbCd2345', { paymentMethod: 'Alipay' }), { unicode: 'AbCd2345' }))))
    const cookie = bought.headers.get('set-cookie')!.split(';')[0]!
    stub.on(shareApi.lookup, ({ query }) =>
      query.get('third_party_trade_no')
        ? { data: { ...SHARE, for_sale: false, link_fixing: true, content: 'the secret', extraction_code: null, payment_status: 'Completed' as const, third_party_trade_no: 'T1', dead_link: NOTICE } }
        : { data: { ...SHARE, for_sale: false, link_fixing: true } },
    )
    const page = statusOf(await loader(args(get('/share/AbCd2345', cookie), { unicode: 'AbCd2345' })))
    expect(page.data).toMatchObject({ deadLink: NOTICE, share: { link_fixing: true } })
    expect((page.data as { share: Record<string, unknown> }).share).not.toHaveProperty('dead_link')

    stub.on(linksApi.refund, { data: { ...NOTICE, refund: 'refunded' } })
    const asked = statusOf(await settle(() => action(args(post('/share/AbCd2345', { intent: 'dead-link-refund', orderNo: ORDER_NO }, { cookie }), { unicode: 'AbCd2345' }))))
    expect(asked.headers.get('location')).toBe(`/share/AbCd2345?order=${ORDER_NO}`)
    const call = stub.callsTo(linksApi.refund)[0]!
    expect(call.body).toEqual({ orderNo: ORDER_NO })
    expect(call.headers['x-buyer-key']).toBe(KEY)
  })

  it('the API\'s refusal on the page; a malformed order number is refused before the API', async () => {
    stub.on(linksApi.refund, { code: 403, msg: 'links.refund.notBuyer', data: null })
    const refused = statusOf(await settle(() => action(args(post('/share/AbCd2345', { intent: 'dead-link-refund', orderNo: ORDER_NO }), { unicode: 'AbCd2345' }))))
    expect(refused).toMatchObject({ status: 400, data: { error: 'links.refund.notBuyer', intent: 'dead-link-refund' } })
    expect(stub.callsTo(linksApi.refund)[0]!.headers['x-buyer-key']).toBeUndefined()
    stub.reset()
    const bad = statusOf(await settle(() => action(args(post('/share/AbCd2345', { intent: 'dead-link-refund', orderNo: 'nope' }), { unicode: 'AbCd2345' }))))
    expect(bad).toMatchObject({ status: 400, data: { error: 'validation.orderNo' } })
    expect(stub.count(linksApi.refund)).toBe(0)
  })
})
