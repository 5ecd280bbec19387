// The after-sales chat of a purchase (decision 102): a signed-in buyer reaches it through its account;
// a visitor only from the browser that paid, with the buyer key kept in its purchase cookie — never with
// an order number alone. The key travels to the API in a header, never in a URL.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ordersApi } from '#contract/orders.ts'
import { type Chat, chatApi, type ChatDetails, EVENTS_PATH } from '#contract/messages.ts'
import { args, get, orderFixture, post, sessionCookie, settle, statusOf } from '../../../tests/support/console.ts'
import { rememberPurchase } from '#app/.server/purchases.ts'
import { loader as events } from '../events.tsx'
import { action, loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())

const CODE = 'AbCd2345'
const ORDER_NO = 'PS20261123000000123456789012'
const KEY = 'AbCdEfGhIjKlMnOpQrSt_-'
const CHAT_SUMMARY: Chat = {
  id: 41,
  status: 'pending',
  created_at: '2026-11-23T01:00:00.000Z',
  processed_at: null,
  last_message_at: '2026-11-23T01:00:00.000Z',
  username: null,
  unread: 0,
  order: {
    orderNo: ORDER_NO,
    product_name: 'Notes',
    amount: 9.9,
    payment_status: 'Completed',
    paymentMethod: 'Alipay',
    paid_at: '2026-11-23T01:00:00.000Z',
    first_revealed_at: null,
    refunded_at: null,
    refundable: true,
  },
}
const CHAT: ChatDetails = { ...CHAT_SUMMARY, list: [], is_end: true, pageNum: 1, pageSize: 20 }

/** The `ps_orders` cookie (name=value) of a browser holding this purchase. */
async function purchaseCookie(buyerKey: string | null) {
  return (await rememberPurchase(get(`/share/${CODE}`), CODE, { orderNo: ORDER_NO, buyerKey }))!.split(';')[0]!
}
const chatCalls = () => stub.calls.filter((c) => c.path.startsWith('/api/afterSalesChat/'))

afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(chatApi.list, { data: { list: [CHAT_SUMMARY], total: 1, pageNum: 1, pageSize: 1 } })
  stub.on(chatApi.details, { data: CHAT })
  stub.on(chatApi.send, { code: 201, data: { id: 1, chat_id: 41, sender: 'user', content: 'hello', created_at: '2026-11-23T02:00:00.000Z', read_at: null } })
})

describe('/share/CODE/chat', () => {
  it('a signed-in buyer reaches the chat of its order through its account, with no purchase in this browser', async () => {
    stub.on(ordersApi.list, ({ query }) => {
      expect(query.get('unicode')).toBe(CODE)
      return { data: { list: [orderFixture({ id: 2, orderNo: 'PS20261101000000000000000001', payment_status: 'Failed', paid_at: null, settle_at: null, settled: false }), orderFixture({ orderNo: ORDER_NO })], total: 2, pageNum: 1, pageSize: 20 } }
    })
    const cookie = await sessionCookie('buyer-token')
    expect(await loader(args(get(`/share/${CODE}/chat`, cookie), { unicode: CODE }))).toMatchObject({ orderNo: ORDER_NO, live: '/events', chat: { id: 41 } })
    for (const c of chatCalls()) {
      expect(c.headers.authorization).toBe('Bearer buyer-token')
      expect(c.headers['x-buyer-key']).toBeUndefined()
      expect(c.query.get('order_no')).toBe(ORDER_NO)
    }
    // Writing goes the same way.
    const sent = statusOf(await settle(() => action(args(post(`/share/${CODE}/chat`, { intent: 'send', content: 'hello' }, { cookie }), { unicode: CODE }))))
    expect(sent.status).toBe(302)
    expect(stub.callsTo(chatApi.send)[0]!.headers.authorization).toBe('Bearer buyer-token')
  })

  it('a visitor proves it is the browser that paid with the key of its purchase cookie, in a header only', async () => {
    const cookie = await purchaseCookie(KEY)
    expect(await loader(args(get(`/share/${CODE}/chat`, cookie), { unicode: CODE }))).toMatchObject({ orderNo: ORDER_NO, live: `/events?share=${CODE}`, chat: { id: 41 } })
    expect(chatCalls().length).toBeGreaterThan(0)
    for (const c of chatCalls()) {
      expect(c.headers['x-buyer-key']).toBe(KEY)
      expect(c.headers.authorization).toBeUndefined()
      expect(c.query.toString()).not.toContain(KEY)
    }
    await settle(() => action(args(post(`/share/${CODE}/chat`, { intent: 'send', content: 'hello' }, { cookie }), { unicode: CODE })))
    const sent = stub.callsTo(chatApi.send)[0]!
    expect([sent.headers['x-buyer-key'], JSON.stringify(sent.body).includes(KEY)]).toEqual([KEY, false])
  })

  it('an order number without the key (typed on the home page, a link) opens no chat and asks the API nothing', async () => {
    for (const cookie of [await purchaseCookie(null), undefined]) {
      const res = statusOf(await settle(() => loader(args(get(`/share/${CODE}/chat`, cookie), { unicode: CODE }))))
      expect(res).toMatchObject({ status: 404, data: { key: 'messages.noPurchase' } })
      const posted = statusOf(await settle(() => action(args(post(`/share/${CODE}/chat`, { intent: 'open' }, { cookie }), { unicode: CODE }))))
      expect(posted.status).toBe(404)
    }
    expect(chatCalls()).toEqual([])
  })

  it('a logged-in user with no purchase of it: the refusal says so, and its page offers the workplace, not "Log in"', async () => {
    stub.on(ordersApi.list, { data: { list: [], total: 0, pageNum: 1, pageSize: 20 } })
    const cookie = await sessionCookie('buyer-token')
    const res = statusOf(await settle(() => loader(args(get(`/share/${CODE}/chat`, cookie), { unicode: CODE }))))
    expect(res).toMatchObject({ status: 404, data: { key: 'messages.noPurchase', loggedIn: true } })
    const visitor = statusOf(await settle(() => loader(args(get(`/share/${CODE}/chat`), { unicode: CODE }))))
    expect(visitor).toMatchObject({ status: 404, data: { key: 'messages.noPurchase', loggedIn: false } })
  })

  it('the live stream of a purchase: the key goes along in a header; none without it', async () => {
    stub.onPath(`GET ${EVENTS_PATH}`, { data: null })
    expect((await events(args(get(`/events?share=${CODE}`, await purchaseCookie(null))))).status).toBe(404)
    expect(stub.count(EVENTS_PATH)).toBe(0)
    const res = await events(args(get(`/events?share=${CODE}`, await purchaseCookie(KEY))))
    await res.body?.cancel()
    const call = stub.callsTo(EVENTS_PATH)[0]!
    expect([call.query.get('order_no'), call.headers['x-buyer-key'], call.query.toString().includes(KEY)]).toEqual([ORDER_NO, KEY, false])
  })
})
