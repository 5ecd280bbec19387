// Issue 20 (High): "ban seller and refund buyers" refunds the sales whose content was never shown to
// the buyer (decision 067). `GET /api/share?third_party_trade_no=<order no>` needed no token and marked
// the order revealed, so a seller who opened each of its own sales emptied the refund in advance. Here
// the seller opens all eight of its sales every way it can — its token, no token, its browser's visitor
// id, a made-up buyer key, and a buyer's own key with the seller's token — and a third account does
// too: the preview still lists all eight. Only the buyers' own reveals (the account, the browser's key)
// count; every reveal is recorded for the admin; the action refunds exactly what the preview listed.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FraudPreview } from '#contract/oversight.ts'
import { signVisitorId } from '#contract/visitor.server.ts'
import { orders } from '../../server/src/db/schema/index.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, testConfig, type TestApp } from '../../server/test/helpers.ts'
import { approvedShare, buy, keyHeader, type Party, type Purchase, signedUp } from './sales.ts'

type Reveal = { how: string; counts: boolean; user_id: number | null; visitor_id: string | null; ip: string; times: number }

describe('a seller opening its own sales to empty the fraud refund', () => {
  let t: TestApp
  let admin: string
  let seller: Party
  let third: Party
  let unicode: string
  const visitors: Purchase[] = []
  const members: Purchase[] = []
  const sellerBrowser = { 'x-visitor-id': signVisitorId('sellersOwnBrowser01', testConfig().secrets.sessionSecret) }

  const lookup = (orderNo: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.9') =>
    t.app.inject({ url: `/api/share?third_party_trade_no=${orderNo}`, headers, remoteAddress })
  const preview = async () => {
    const res = await t.app.inject({ url: `/api/users/admin/fraud-preview?id=${seller.id}`, headers: bearer(admin) })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data as FraudPreview & { reveals: { list: (Reveal & { orderNo: string })[]; total: number } }
  }
  const orderId = async (orderNo: string) => (await t.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo)))[0]!.id
  const revealsOf = async (orderNo: string) => {
    const res = await t.app.inject({ url: `/api/orders/admin/reveals?id=${await orderId(orderNo)}`, headers: bearer(admin) })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.list as Reveal[]
  }

  beforeAll(async () => {
    t = await buildTestApp({ config: { seedDemo: false } })
    admin = await t.login('admin', ADMIN_PASSWORD)
    seller = await signedUp(t)
    third = await signedUp(t)
    unicode = (await approvedShare(t, seller.id)).unicode
    for (let i = 0; i < 4; i++) visitors.push(await buy(t, unicode, null))
    for (let i = 0; i < 4; i++) members.push(await buy(t, unicode, await signedUp(t)))
  })
  afterAll(async () => t?.close())

  it('opening each sale by its number with its token, without, from its browser, with made-up or stolen keys changes nothing: eight to refund', async () => {
    expect((await preview()).order_count).toBe(8)
    const sales = [...visitors, ...members]
    for (const p of sales) {
      for (const headers of [
        bearer(seller.token),
        {},
        sellerBrowser,
        { ...bearer(seller.token), ...keyHeader('C'.repeat(22)) },
        keyHeader('D'.repeat(22)),
        bearer(third.token),
      ]) {
        // The order number still opens the content (decision 036: a buyer who lost its cookie) …
        const res = await lookup(p.orderNo, headers)
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json().data.content).toBe('the secret')
      }
    }
    // … and the seller's token with a buyer's real key is still the seller.
    const stolen = await lookup(visitors[0]!.orderNo, { ...bearer(seller.token), ...keyHeader(visitors[0]!.buyerKey) })
    expect(stolen.statusCode).toBe(200)
    // The owner's own page by code.
    expect((await t.app.inject({ url: `/api/share?unicode=${unicode}`, headers: bearer(seller.token) })).json().data.content).toBe('the secret')

    const rows = await t.db.select({ revealed: orders.firstRevealedAt }).from(orders).where(inArray(orders.orderNo, sales.map((s) => s.orderNo)))
    expect(rows.map((r) => r.revealed)).toEqual(sales.map(() => null))
    const p = await preview()
    expect([p.order_count, p.total]).toEqual([8, 40])
    // Every one of those lookups is on record for the admin, none counted: who, how, from where.
    const seen = await revealsOf(visitors[0]!.orderNo)
    expect(seen.every((r) => !r.counts)).toBe(true)
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ how: 'owner', user_id: seller.id, ip: '203.0.113.9', counts: false }),
        expect.objectContaining({ how: 'order_number', user_id: null, visitor_id: 'sellersOwnBrowser01', counts: false }),
        expect.objectContaining({ how: 'order_number', user_id: third.id, counts: false }),
      ]),
    )
    expect(seen.find((r) => r.how === 'owner')!.times).toBeGreaterThanOrEqual(3)
    expect(p.reveals.total).toBeGreaterThanOrEqual(16)
    expect(p.reveals.list.some((r) => r.how === 'owner' && r.user_id === seller.id && !r.counts)).toBe(true)
  })

  it('the buyers\' own reveals count — by the account, and by the key of the browser that paid — and are recorded as such', async () => {
    const [v0, v1] = visitors
    const [m0, m1] = members
    expect((await lookup(v0!.orderNo, keyHeader(v0!.buyerKey))).json().data.content).toBe('the secret')
    // A visitor who paid, then logged in to another account in the same browser: still its browser.
    expect((await lookup(v1!.orderNo, { ...bearer(third.token), ...keyHeader(v1!.buyerKey) })).json().data.content).toBe('the secret')
    expect((await t.app.inject({ url: `/api/share?unicode=${unicode}`, headers: bearer(m0!.buyer!.token) })).json().data.content).toBe('the secret')
    expect((await lookup(m1!.orderNo, bearer(m1!.buyer!.token))).json().data.content).toBe('the secret')

    const p = await preview()
    expect([p.order_count, p.total]).toEqual([4, 20])
    expect(p.orders.map((o) => o.orderNo).sort()).toEqual([visitors[2]!, visitors[3]!, members[2]!, members[3]!].map((s) => s.orderNo).sort())
    expect(await revealsOf(v0!.orderNo)).toEqual(expect.arrayContaining([expect.objectContaining({ how: 'buyer_browser', user_id: null, counts: true })]))
    expect(await revealsOf(v1!.orderNo)).toEqual(expect.arrayContaining([expect.objectContaining({ how: 'buyer_browser', user_id: third.id, counts: true })]))
    expect(await revealsOf(m0!.orderNo)).toEqual(expect.arrayContaining([expect.objectContaining({ how: 'buyer_account', user_id: m0!.buyer!.id, counts: true })]))
  })

  it('the action refunds exactly the orders the preview listed, and leaves the revealed ones', async () => {
    const listed = (await preview()).orders.map((o) => o.orderNo).sort()
    const res = await t.app.inject({ method: 'POST', url: '/api/users/admin/fraud-action', headers: bearer(admin), payload: { id: seller.id, confirm: true } })
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json().data.refunded as { orderNo: string }[]).map((r) => r.orderNo).sort()).toEqual(listed)
    expect(listed).toHaveLength(4)
    const status = await t.db.select({ no: orders.orderNo, s: orders.paymentStatus }).from(orders).where(eq(orders.sellerId, seller.id))
    expect(status.filter((o) => o.s === 'Refund').map((o) => o.no).sort()).toEqual(listed)
    expect(status.filter((o) => o.s === 'Completed')).toHaveLength(4)
  })
})
