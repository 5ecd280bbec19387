// Issue 20: what an order number is worth to someone who is not its buyer. A third party who saw a
// buyer's whole order number (a screenshot, a shared link) may reopen the content — decision 036 keeps
// that for a buyer who lost its cookie — but does not become the buyer: no chat, no live stream, and its
// look counts as no reveal. A masked number (what the seller sees) opens nothing at all.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FraudPreview } from '#contract/oversight.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, dbFingerprint, type TestApp } from '../../server/test/helpers.ts'
import { approvedShare, buy, keyHeader, type Party, type Purchase, signedUp } from './sales.ts'

describe('a third party holding an order number', () => {
  let t: TestApp
  let base: string
  let admin: string
  let seller: Party
  let third: Party
  let visitor: Purchase
  let chatId: number
  const masked = (no: string) => `${no.slice(0, 16)}********${no.slice(-4)}`

  beforeAll(async () => {
    t = await buildTestApp({ config: { seedDemo: false } })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    admin = await t.login('admin', ADMIN_PASSWORD)
    seller = await signedUp(t)
    third = await signedUp(t)
    visitor = await buy(t, (await approvedShare(t, seller.id)).unicode, null)
    const opened = await t.app.inject({ method: 'POST', url: '/api/afterSalesChat/create', headers: keyHeader(visitor.buyerKey), payload: { order_no: visitor.orderNo } })
    expect(opened.statusCode, opened.body).toBe(201)
    chatId = opened.json().data.id
    await t.app.inject({ method: 'POST', url: '/api/afterSalesChat/sendMessage', headers: bearer(admin), payload: { chat_id: chatId, content: 'Hello from support' } })
  })
  afterAll(async () => t?.close())

  it('with the whole number, with or without an account, gets no chat, no stream, and its look counts for nothing', async () => {
    const before = await dbFingerprint(t.db)
    for (const h of [{}, bearer(third.token)] as Record<string, string>[]) {
      const label = h.authorization ? 'another account' : 'no account'
      expect((await t.app.inject({ method: 'POST', url: '/api/afterSalesChat/create', headers: h, payload: { order_no: visitor.orderNo } })).statusCode, label).toBe(404)
      expect((await t.app.inject({ url: `/api/afterSalesChat/details?chat_id=${chatId}&order_no=${visitor.orderNo}`, headers: h })).statusCode, label).toBe(404)
      expect((await t.app.inject({ url: `/api/afterSalesChat/list?order_no=${visitor.orderNo}`, headers: h })).json().data.list, label).toEqual([])
      expect((await t.app.inject({ url: `/api/afterSalesChat/getUnreadMessageCount?order_no=${visitor.orderNo}`, headers: h })).json().data.chats, label).toBe(0)
      const sent = await t.app.inject({ method: 'POST', url: '/api/afterSalesChat/sendMessage', headers: h, payload: { chat_id: chatId, order_no: visitor.orderNo, content: 'hi' } })
      expect(sent.statusCode, label).toBe(404)
      const stream = await fetch(`${base}/api/events?order_no=${visitor.orderNo}`, { headers: h })
      expect(stream.status, label).toBe(404)
      await stream.body?.cancel()
    }
    expect(await dbFingerprint(t.db)).toEqual(before)

    const looked = await t.app.inject({ url: `/api/share?third_party_trade_no=${visitor.orderNo}`, headers: bearer(third.token) })
    expect(looked.json().data.content).toBe('the secret')
    const preview = (await t.app.inject({ url: `/api/users/admin/fraud-preview?id=${seller.id}`, headers: bearer(admin) })).json().data as FraudPreview
    expect(preview.order_count).toBe(1)
  })

  it('with a masked number, or a key that is not the order\'s, opens nothing at all', async () => {
    const m = masked(visitor.orderNo)
    const before = await dbFingerprint(t.db)
    for (const url of [
      `/api/share?third_party_trade_no=${m}`,
      `/api/orders/payment-status?orderNo=${m}`,
      `/api/afterSalesChat/list?order_no=${m}`,
      `/api/afterSalesChat/details?chat_id=${chatId}&order_no=${m}`,
    ]) {
      const res = await t.app.inject({ url, headers: keyHeader(visitor.buyerKey) })
      expect(res.statusCode, url).toBe(422)
    }
    const created = await t.app.inject({ method: 'POST', url: '/api/afterSalesChat/create', headers: keyHeader(visitor.buyerKey), payload: { order_no: m } })
    expect(created.statusCode).toBe(422)
    const stream = await fetch(`${base}/api/events?order_no=${encodeURIComponent(m)}`, { headers: keyHeader(visitor.buyerKey) })
    expect(stream.status).toBe(422)
    await stream.body?.cancel()
    // A key of the right shape that is not this order's, and a malformed one.
    for (const key of ['E'.repeat(22), 'not a key']) {
      const res = await t.app.inject({ url: `/api/afterSalesChat/details?chat_id=${chatId}&order_no=${visitor.orderNo}`, headers: { 'x-buyer-key': key } })
      expect(res.statusCode, key).toBe(key.length === 22 ? 404 : 422)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})
