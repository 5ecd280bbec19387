import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Chat, ChatDetails, ChatMessage, Unread } from '#contract/messages.ts'
import { chatMessages, ledgerEntries, orders, shares } from '../../db/schema/index.ts'
import { createRateLimits } from '../../plugins/app/rate-limits.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp } from '../../../test/helpers.ts'
import { newUnicode } from '../shares/rules.ts'
import { readEvents } from '../../../test/sse.ts'

type Inject = TestApp['app']['inject']

describe('after-sales chat', () => {
  let t: TestApp
  let inject: Inject
  let admin: string
  let seller: { id: number }
  let buyer: { id: number; token: string }
  let other: { id: number; token: string }

  beforeAll(async () => {
    // A small message budget, so the rate limit is reached in a test (the real one is 20 a minute).
    t = await buildTestApp({ limits: await createRateLimits(undefined, { message: { points: 8, duration: 60 } }) })
    inject = t.app.inject.bind(t.app)
    admin = await t.login('admin', ADMIN_PASSWORD)
    const s = await createUser(t.db)
    seller = { id: s.id }
    const b = await createUser(t.db)
    buyer = { id: b.id, token: await t.login(b.userName, b.password) }
    const o = await createUser(t.db)
    other = { id: o.id, token: await t.login(o.userName, o.password) }
  })
  afterAll(async () => t?.close())

  /** The browser that created an order proves itself with the order's buyer key (decision 102). */
  const keys = new Map<string, string>()
  const asVisitor = (orderNo: string): Record<string, string> => ({ 'x-buyer-key': keys.get(orderNo)! })

  /** Someone buys one of the seller's shares through the sandbox (a visitor without `token`). */
  async function buy(token?: string, paid = true): Promise<string> {
    const [share] = await t.db
      .insert(shares)
      .values({ userId: seller.id, title: 'Chat test', unicode: newUnicode(), type: 'text', contentEnc: t.app.cipher.encrypt('x'), priceFen: 500, status: 'approved' })
      .returning()
    const created = await inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), headers: token ? bearer(token) : {}, payload: { unicode: share!.unicode, paymentMethod: 'Alipay' } })
    expect(created.statusCode, created.body).toBe(201)
    const orderNo = created.json().data.orderNo as string
    keys.set(orderNo, created.json().data.buyerKey as string)
    if (paid) {
      const n = t.app.payments.sandbox!.settle(orderNo, 500, true)
      expect((await inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })).body).toBe('success')
    }
    return orderNo
  }
  const open = async (orderNo: string, headers: Record<string, string> = {}) => {
    const res = await inject({ method: 'POST', url: '/api/afterSalesChat/create', headers, payload: { order_no: orderNo } })
    expect(res.statusCode, res.body).toBe(201)
    return res.json().data as Chat
  }
  const details = (q: string, headers: Record<string, string> = {}) => inject({ url: `/api/afterSalesChat/details?${q}`, headers })
  const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) => inject({ method: 'POST', url: '/api/afterSalesChat/sendMessage', headers, payload: body })
  const unread = async (q = '', headers: Record<string, string> = {}) => {
    const res = await inject({ url: `/api/afterSalesChat/getUnreadMessageCount${q}`, headers })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data as Unread
  }

  it('a visitor opens the chat of its order with its browser\'s buyer key, the admin answers and refunds through the orders path', async () => {
    const orderNo = await buy()
    const chat = await open(orderNo, asVisitor(orderNo))
    expect(chat).toMatchObject({ status: 'pending', username: null, processed_at: null, order: { orderNo, payment_status: 'Completed', refundable: true } })
    expect(chat.order.paid_at).not.toBeNull()
    // Opening again (or twice at once) finds the same chat.
    const again = await Promise.all([open(orderNo, asVisitor(orderNo)), open(orderNo, asVisitor(orderNo))])
    expect(again.map((c) => c.id)).toEqual([chat.id, chat.id])

    const line = await send({ chat_id: chat.id, order_no: orderNo, content: 'I paid but see nothing. https://example.com/x' }, asVisitor(orderNo))
    expect(line.statusCode, line.body).toBe(201)
    expect(line.json().data).toMatchObject({ sender: 'user', content: 'I paid but see nothing. https://example.com/x' })
    expect((await unread(`?order_no=${orderNo}`, asVisitor(orderNo))).chats).toBe(0)
    expect((await unread('', bearer(admin))).chats).toBeGreaterThanOrEqual(1)

    const list = await inject({ url: '/api/afterSalesChat/admin/list?status=pending&pageSize=100', headers: bearer(admin) })
    expect((list.json().data.list as Chat[]).some((c) => c.id === chat.id && c.unread === 1)).toBe(true)
    const seen = (await inject({ url: `/api/afterSalesChat/admin/details?chat_id=${chat.id}`, headers: bearer(admin) })).json().data as ChatDetails
    expect(seen.list[0]!.read_at).not.toBeNull()
    expect(seen.unread).toBe(0)

    const answer = await send({ chat_id: chat.id, content: 'Looking into it.' }, bearer(admin))
    expect(answer.json().data.sender).toBe('admin')
    expect((await unread(`?order_no=${orderNo}`, asVisitor(orderNo))).chats).toBe(1)
    const visitorView = (await details(`chat_id=${chat.id}&order_no=${orderNo}`, asVisitor(orderNo))).json().data as ChatDetails
    expect(visitorView.status).toBe('processing')
    expect(visitorView.processed_at).not.toBeNull()
    expect(visitorView.list.map((m) => m.sender)).toEqual(['admin', 'user'])
    expect((await unread(`?order_no=${orderNo}`, asVisitor(orderNo))).chats).toBe(0)

    // The admin refunds from the chat through the existing refund call; the chat shows the evidence.
    const refund = await inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo } })
    expect(refund.statusCode, refund.body).toBe(200)
    const order = (await t.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
    expect((await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order.id))).map((e) => e.kind).sort()).toEqual(['refund', 'sale'])
    const closed = await inject({ method: 'POST', url: '/api/afterSalesChat/updateChatStatus', headers: bearer(admin), payload: { chat_id: chat.id, status: 'closed' } })
    expect(closed.json().data).toMatchObject({ status: 'closed', order: { payment_status: 'Refund', refundable: false } })
    // A closed chat takes no more lines until an admin reopens it.
    const late = await send({ chat_id: chat.id, order_no: orderNo, content: 'thanks' }, asVisitor(orderNo))
    expect([late.statusCode, late.json().msg]).toEqual([409, 'messages.chatClosed'])
  })

  it('pages newest first with is_end, older pages after', async () => {
    const orderNo = await buy(buyer.token)
    const chat = await open(orderNo, bearer(buyer.token))
    expect(chat.username).not.toBeNull()
    for (let i = 1; i <= 5; i++) await t.db.insert(chatMessages).values({ chatId: chat.id, sender: i % 2 ? 'user' : 'admin', content: `line ${i}` })
    const p1 = (await details(`chat_id=${chat.id}&pageSize=2&pageNum=1`, bearer(buyer.token))).json().data as ChatDetails
    const p3 = (await details(`chat_id=${chat.id}&pageSize=2&pageNum=3`, bearer(buyer.token))).json().data as ChatDetails
    expect([p1.list.map((m) => m.content), p1.is_end]).toEqual([['line 5', 'line 4'], false])
    expect([p3.list.map((m) => m.content), p3.is_end]).toEqual([['line 1'], true])
    const mine = (await inject({ url: '/api/afterSalesChat/list', headers: bearer(buyer.token) })).json().data.list as Chat[]
    expect(mine.map((c) => c.id)).toContain(chat.id)
  })

  it('nobody reads or writes another buyer\'s chat: every call with another token or another order number answers 404', async () => {
    const orderNo = await buy(buyer.token)
    const chat = await open(orderNo, bearer(buyer.token))
    await send({ chat_id: chat.id, content: 'mine' }, bearer(buyer.token))
    const strangerOrder = await buy(other.token)
    await open(strangerOrder, bearer(other.token))
    const before = await dbFingerprint(t.db)
    // Another account; the browser of another order (its number and key); the order number alone.
    const as: Record<string, string>[] = [bearer(other.token), asVisitor(strangerOrder), {}]
    for (const headers of as) {
      const proof = headers.authorization ? '' : `&order_no=${strangerOrder}`
      expect((await details(`chat_id=${chat.id}${proof}`, headers)).statusCode).toBe(404)
      expect((await send({ chat_id: chat.id, content: 'hi', ...(proof ? { order_no: strangerOrder } : {}) }, headers)).statusCode).toBe(404)
      const st = await inject({ method: 'POST', url: '/api/afterSalesChat/updateChatStatus', headers, payload: { chat_id: chat.id, status: 'closed', ...(proof ? { order_no: strangerOrder } : {}) } })
      expect(st.statusCode).toBe(404)
      const listed = (await inject({ url: `/api/afterSalesChat/list?${proof.slice(1)}`, headers })).json().data.list as Chat[]
      expect(listed.map((c) => c.id)).not.toContain(chat.id)
      const read = await inject({ method: 'POST', url: '/api/afterSalesChat/markAllChatsAsRead', headers, payload: proof ? { order_no: strangerOrder } : {} })
      expect(read.statusCode).toBe(200)
    }
    // A made-up order number opens nothing and proves nothing.
    const madeUp = `PS${'1'.repeat(26)}`
    expect((await inject({ method: 'POST', url: '/api/afterSalesChat/create', payload: { order_no: madeUp } })).statusCode).toBe(404)
    expect((await details(`chat_id=${chat.id}&order_no=${madeUp}`)).statusCode).toBe(404)
    expect((await inject({ url: `/api/events?order_no=${madeUp}` })).statusCode).toBe(404)
    // The buyer's own order number without its account: a signed-in buyer's chat is its account's only.
    expect((await details(`chat_id=${chat.id}&order_no=${orderNo}`)).statusCode).toBe(404)
    expect((await details(`chat_id=${chat.id}&order_no=${orderNo}`, asVisitor(orderNo))).statusCode).toBe(404)
    // Without a token, order number or key: 401; the admin calls: 403 for users.
    expect((await details(`chat_id=${chat.id}`)).statusCode).toBe(401)
    expect((await inject({ url: '/api/afterSalesChat/getUnreadMessageCount' })).statusCode).toBe(401)
    expect((await inject({ url: `/api/afterSalesChat/admin/details?chat_id=${chat.id}`, headers: bearer(buyer.token) })).statusCode).toBe(403)
    expect((await inject({ url: '/api/afterSalesChat/admin/list', headers: bearer(buyer.token) })).statusCode).toBe(403)
    expect(await dbFingerprint(t.db)).toEqual(before)
    // The buyer may close their chat, never reopen or take it up.
    const reopen = await inject({ method: 'POST', url: '/api/afterSalesChat/updateChatStatus', headers: bearer(buyer.token), payload: { chat_id: chat.id, status: 'processing' } })
    expect([reopen.statusCode, reopen.json().msg]).toEqual([403, 'messages.buyerMayOnlyClose'])
  })

  it('an unpaid order has no chat', async () => {
    const orderNo = await buy(undefined, false)
    const res = await inject({ method: 'POST', url: '/api/afterSalesChat/create', headers: asVisitor(orderNo), payload: { order_no: orderNo } })
    expect([res.statusCode, res.json().msg]).toEqual([409, 'messages.orderNotPaid'])
  })

  it('message text: plain, 1–2,000 characters, rate-limited; bad input changes nothing', async () => {
    const orderNo = await buy(buyer.token)
    const chat = await open(orderNo, bearer(buyer.token))
    const html = await send({ chat_id: chat.id, content: '<b>bold</b> <script>x</script>' }, bearer(buyer.token))
    // Stored and answered as the text it is; the console shows it as text.
    expect((html.json().data as ChatMessage).content).toBe('<b>bold</b> <script>x</script>')
    const before = await dbFingerprint(t.db)
    for (const [content, msg] of [
      ['', 'messages.contentRequired'],
      ['   ', 'messages.contentRequired'],
      ['x'.repeat(2001), 'messages.contentTooLong'],
      ['a\u0007b', 'messages.contentInvalid'],
    ] as const) {
      const res = await send({ chat_id: chat.id, content }, bearer(buyer.token))
      expect([res.statusCode, res.json().data.fieldErrors.content]).toEqual([422, [msg]])
    }
    for (const c of badInputs({
      method: 'POST',
      url: '/api/afterSalesChat/sendMessage',
      headers: bearer(buyer.token),
      body: { fields: { chat_id: { type: 'int', required: true }, content: { type: 'string', required: true, freeText: true } }, valid: { chat_id: chat.id, content: 'ok' } },
    }).filter((c) => c.field !== 'content' || c.status !== undefined)) {
      const res = await inject(c.request)
      if (res.statusCode === 201) continue // a free-text variant that is valid text
      expectRejected(res, c)
    }
    expect(await dbFingerprint(t.db).then((f) => f.chats)).toBe(before.chats)
    const exactly = await send({ chat_id: chat.id, content: 'y'.repeat(2000) }, bearer(buyer.token))
    expect(exactly.statusCode).toBe(201)
    const burst = await Promise.all(Array.from({ length: 10 }, () => send({ chat_id: chat.id, content: 'spam' }, bearer(buyer.token))))
    expect(burst.filter((r) => r.statusCode === 429).length).toBeGreaterThan(0)
    expect(burst.find((r) => r.statusCode === 429)!.json().msg).toBe('messages.rateLimited')
  })

  it('streams a new line live to the buyer, the visitor and the admins (SSE)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const orderNo = await buy()
    const chat = await open(orderNo, asVisitor(orderNo))
    const visitor = readEvents(`${base}/api/events?order_no=${orderNo}`, asVisitor(orderNo))
    const admins = readEvents(`${base}/api/events`, bearer(admin))
    const stranger = readEvents(`${base}/api/events`, bearer(other.token))
    expect(await Promise.all([visitor.ready, admins.ready, stranger.ready])).toEqual([200, 200, 200])
    await new Promise((r) => setTimeout(r, 50))
    await send({ chat_id: chat.id, content: 'hello live' }, bearer(admin))
    const got = await visitor.waitFor((e) => e.type === 'chat')
    expect(got.data).toMatchObject({ chat_id: chat.id, message: { content: 'hello live', sender: 'admin' } })
    await admins.waitFor((e) => e.type === 'chat')
    await send({ chat_id: chat.id, order_no: orderNo, content: 'thanks' }, asVisitor(orderNo))
    await admins.waitFor((e) => e.type === 'chat' && (e.data as { message: ChatMessage }).message.content === 'thanks')
    expect(stranger.events.filter((e) => e.type === 'chat')).toEqual([])
    expect((await fetch(`${base}/api/events`)).status).toBe(401)
    for (const s of [visitor, admins, stranger]) s.close()
  })
})
