// Issue 20 (High): a seller read, wrote, closed, marked read and followed live its buyers' after-sales
// chats, because the order number — shown whole in its sales list — was the chat's proof of being the
// buyer (decision 079, superseded by 102). Here the seller, with its own sales list, and then even with
// a buyer's whole order number (as if it leaked), tries every chat call and the live stream on the chat
// of a visitor's order and on the chat of a signed-in buyer's order. It must get what a chat that does
// not exist gets, and change nothing; the buyers keep their chats.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Chat } from '#contract/messages.ts'
import type { Order } from '#contract/orders.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, dbFingerprint, type TestApp } from '../../server/test/helpers.ts'
import { readEvents } from '../../server/test/sse.ts'
import { approvedShare, buy, keyHeader, type Party, type Purchase, signedUp } from './sales.ts'

type Headers = Record<string, string>

describe('a seller in its buyers\' after-sales chats', () => {
  let t: TestApp
  let base: string
  let admin: string
  let seller: Party
  let member: Party
  /** A visitor's purchase (no account: its proof is the buyer key) and a signed-in buyer's. */
  let visitor: Purchase
  let signedIn: Purchase
  const chatOf = new Map<string, number>()

  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const answer = (res: { statusCode: number; json: () => { msg: string } }) => [res.statusCode, res.json().msg]

  beforeAll(async () => {
    t = await buildTestApp()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    admin = await t.login('admin', ADMIN_PASSWORD)
    seller = await signedUp(t)
    member = await signedUp(t)
    const share = await approvedShare(t, seller.id)
    visitor = await buy(t, share.unicode, null)
    signedIn = await buy(t, share.unicode, member)
    // Each buyer opens its chat and writes; the platform answers each (an unread line for the buyer).
    for (const [p, proof] of [
      [visitor, keyHeader(visitor.buyerKey)],
      [signedIn, bearer(member.token)],
    ] as const) {
      const opened = await call('POST', '/api/afterSalesChat/create', proof, { order_no: p.orderNo })
      expect(opened.statusCode, opened.body).toBe(201)
      const id = (opened.json().data as Chat).id
      chatOf.set(p.orderNo, id)
      const buyerLine = await call('POST', '/api/afterSalesChat/sendMessage', proof, { chat_id: id, order_no: p.orderNo, content: 'I paid, where is it?' })
      expect(buyerLine.statusCode, buyerLine.body).toBe(201)
      const platformLine = await call('POST', '/api/afterSalesChat/sendMessage', bearer(admin), { chat_id: id, content: 'Looking into it.' })
      expect(platformLine.statusCode, platformLine.body).toBe(201)
    }
  })
  afterAll(async () => t?.close())

  it('sees the order numbers of its sales masked — list, workplace, filters — and no buyer key in any answer to it', async () => {
    const list = await call('GET', '/api/orders/seller/list?pageSize=100', bearer(seller.token))
    expect(list.statusCode, list.body).toBe(200)
    const rows = list.json().data.list as Order[]
    expect(rows).toHaveLength(2)
    for (const p of [visitor, signedIn]) {
      // The time and the last four digits (to match a payment the buyer describes), never the rest.
      const masked = `${p.orderNo.slice(0, 16)}********${p.orderNo.slice(-4)}`
      expect(rows.map((o) => o.orderNo)).toContain(masked)
      // A whole number with other hidden digits finds the same row: the filter is no oracle for them.
      const wrongDigits = `${p.orderNo.slice(0, 16)}${p.orderNo.slice(16, 24) === '00000000' ? '11111111' : '00000000'}${p.orderNo.slice(-4)}`
      for (const asked of [p.orderNo, wrongDigits, masked]) {
        const found = await call('GET', `/api/orders/seller/list?orderNo=${asked}`, bearer(seller.token))
        expect((found.json().data.list as Order[]).map((o) => o.orderNo), asked).toEqual([masked])
      }
    }
    // Every answer the seller's account can ask for: no whole order number of its buyers, no buyer key.
    const secrets = [visitor.orderNo, signedIn.orderNo, visitor.buyerKey ?? '(no key issued)', signedIn.buyerKey ?? '(no key issued)']
    const sellerViews = [
      '/api/orders/seller/list',
      '/api/orders/list',
      '/api/income/summary',
      '/api/income/daily',
      '/api/shares/list',
      '/api/withdrawals/list',
      '/api/messages/list',
      '/api/notifications/list',
      '/api/afterSalesChat/list',
      '/api/afterSalesChat/getUnreadMessageCount',
      '/api/appeals/mine',
      '/api/users/userInfo',
    ]
    for (const url of sellerViews) {
      const res = await call('GET', url, bearer(seller.token))
      expect(res.statusCode, `${url} ${res.body}`).toBe(200)
      for (const s of secrets) expect(res.body, url).not.toContain(s)
    }
    // Admins and the buyer itself still see the number whole.
    const all = (await call('GET', '/api/orders/admin/list?pageSize=100', bearer(admin))).json().data.list as Order[]
    expect(all.map((o) => o.orderNo)).toEqual(expect.arrayContaining([visitor.orderNo, signedIn.orderNo]))
    const own = (await call('GET', '/api/orders/list', bearer(member.token))).json().data.list as Order[]
    expect(own.map((o) => o.orderNo)).toEqual([signedIn.orderNo])
  })

  it('even with a buyer\'s whole order number, every chat call answers what a chat that does not exist answers, and changes nothing', async () => {
    const madeUp = `PS${'2'.repeat(26)}`
    const nobodysChat = 2_000_000_000
    const wrongKey = 'A'.repeat(22)
    const absent = {
      create: answer(await call('POST', '/api/afterSalesChat/create', {}, { order_no: madeUp })),
      details: answer(await call('GET', `/api/afterSalesChat/details?chat_id=${nobodysChat}&order_no=${madeUp}`, {})),
    }
    expect(absent).toEqual({ create: [404, 'messages.orderNotFound'], details: [404, 'messages.chatNotFound'] })

    const before = await dbFingerprint(t.db)
    const as: [string, Headers][] = [
      ['seller token', bearer(seller.token)],
      ['seller token and a made-up key', { ...bearer(seller.token), ...keyHeader(wrongKey) }],
      ['no token', {}],
      ['no token, a made-up key', keyHeader(wrongKey)],
    ]
    for (const p of [visitor, signedIn]) {
      const chatId = chatOf.get(p.orderNo)!
      for (const [who, h] of as) {
        const label = `${who} on ${p === visitor ? "a visitor's" : "a signed-in buyer's"} chat`
        expect(answer(await call('POST', '/api/afterSalesChat/create', h, { order_no: p.orderNo })), label).toEqual(absent.create)
        const listed = await call('GET', `/api/afterSalesChat/list?order_no=${p.orderNo}`, h)
        expect(listed.statusCode, label).toBe(200)
        expect((listed.json().data.list as Chat[]).map((c) => c.id), label).not.toContain(chatId)
        expect(answer(await call('GET', `/api/afterSalesChat/details?chat_id=${chatId}&order_no=${p.orderNo}`, h)), label).toEqual(absent.details)
        expect(answer(await call('POST', '/api/afterSalesChat/sendMessage', h, { chat_id: chatId, order_no: p.orderNo, content: 'posted as the buyer' })), label).toEqual(
          absent.details,
        )
        expect(answer(await call('POST', '/api/afterSalesChat/updateChatStatus', h, { chat_id: chatId, order_no: p.orderNo, status: 'closed' })), label).toEqual(
          absent.details,
        )
        const read = await call('POST', '/api/afterSalesChat/markAllChatsAsRead', h, { order_no: p.orderNo })
        expect(read.statusCode, label).toBe(200)
        const unread = await call('GET', `/api/afterSalesChat/getUnreadMessageCount?order_no=${p.orderNo}`, h)
        expect(unread.json().data.chats, label).toBe(0)
      }
    }
    // Nothing was opened, written, closed or marked read.
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('cannot follow a buyer\'s chat live: the stream by order number is refused, and its own stream carries none of the buyers\' lines', async () => {
    const madeUp = await fetch(`${base}/api/events?order_no=PS${'3'.repeat(26)}`)
    expect(madeUp.status).toBe(404)
    for (const p of [visitor, signedIn]) {
      for (const h of [bearer(seller.token), {}, keyHeader('B'.repeat(22))]) {
        const res = await fetch(`${base}/api/events?order_no=${p.orderNo}`, { headers: h })
        expect(res.status, JSON.stringify(h)).toBe(madeUp.status)
        await res.body?.cancel()
      }
    }
    const own = readEvents(`${base}/api/events`, bearer(seller.token))
    const visitorsStream = readEvents(`${base}/api/events?order_no=${visitor.orderNo}`, keyHeader(visitor.buyerKey))
    expect(await Promise.all([own.ready, visitorsStream.ready])).toEqual([200, 200])
    await new Promise((r) => setTimeout(r, 50))
    for (const p of [visitor, signedIn]) {
      await call('POST', '/api/afterSalesChat/sendMessage', bearer(admin), { chat_id: chatOf.get(p.orderNo)!, content: `live ${p.orderNo.slice(-4)}` })
    }
    // The visitor hears its line; the seller hears nothing of either chat.
    await visitorsStream.waitFor((e) => e.type === 'chat' && (e.data as { chat_id: number }).chat_id === chatOf.get(visitor.orderNo))
    await new Promise((r) => setTimeout(r, 100))
    expect(own.events.filter((e) => e.type === 'chat' || e.type === 'chatStatus')).toEqual([])
    own.close()
    visitorsStream.close()
  })

  it('the buyers keep their chats: the visitor by its key, the signed-in buyer by its account only', async () => {
    const visitorChat = chatOf.get(visitor.orderNo)!
    const mine = await call('GET', `/api/afterSalesChat/details?chat_id=${visitorChat}&order_no=${visitor.orderNo}`, keyHeader(visitor.buyerKey))
    expect(mine.statusCode, mine.body).toBe(200)
    expect(mine.json().data.list.map((m: { content: string }) => m.content)).toContain('I paid, where is it?')
    const memberChat = chatOf.get(signedIn.orderNo)!
    expect((await call('GET', `/api/afterSalesChat/details?chat_id=${memberChat}`, bearer(member.token))).statusCode).toBe(200)
    // A signed-in buyer's chat is its account's: the order's key alone (or another's key) opens nothing.
    expect((await call('GET', `/api/afterSalesChat/details?chat_id=${memberChat}&order_no=${signedIn.orderNo}`, keyHeader(signedIn.buyerKey))).statusCode).toBe(404)
    expect((await call('GET', `/api/afterSalesChat/details?chat_id=${memberChat}&order_no=${signedIn.orderNo}`, keyHeader(visitor.buyerKey))).statusCode).toBe(404)
    // One order's key proves nothing about another order.
    expect((await call('GET', `/api/afterSalesChat/details?chat_id=${visitorChat}&order_no=${visitor.orderNo}`, keyHeader(signedIn.buyerKey))).statusCode).toBe(404)
    // The admins still answer both.
    for (const id of [visitorChat, memberChat]) expect((await call('GET', `/api/afterSalesChat/admin/details?chat_id=${id}`, bearer(admin))).statusCode).toBe(200)
  })
})
