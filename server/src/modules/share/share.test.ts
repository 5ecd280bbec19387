import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signVisitorId } from '#contract/visitor.server.ts'
import { shares } from '../../db/schema/index.ts'
import { ADMIN_PASSWORD, DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, USER_PASSWORD, bearer, buildTestApp, createUser, freshIp, testConfig, type TestApp } from '../../../test/helpers.ts'

let t: TestApp
let seller: string
let admin: string
/** The console signs the visitor ids it forwards with the secret both services share. */
const SESSION_SECRET = testConfig().secrets.sessionSecret

const SECRET = 'the secret text 秘密 42'
const newShare = (overrides: Record<string, unknown> = {}) => ({ title: 'A share', type: 'text', content: SECRET, price: 9.9, subscription_status: 'close', ...overrides })

async function create(token: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(token), payload: body })
}

beforeAll(async () => {
  t = await buildTestApp()
  seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())

describe('the public lookup', () => {
  it('never carries the content for visitors; owner and admin see it; unknown, deleted and malformed codes answer 404/422', async () => {
    const s = (await create(seller, newShare())).json().data
    const anon = await t.app.inject({ url: `/api/share?unicode=${s.unicode}` })
    expect(anon.statusCode).toBe(200)
    expect(anon.body).not.toContain(SECRET)
    expect(anon.json().data).not.toHaveProperty('content')
    expect(anon.json().data.status).toBe('under_review')
    expect(anon.json().data.for_sale).toBe(false)
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(seller) })).json().data.content).toBe(SECRET)
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(admin) })).json().data.content).toBe(SECRET)
    expect((await t.app.inject({ url: '/api/share?unicode=ZZZZZZZZ' })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/api/share?unicode=0OIl0OIl' })).statusCode).toBe(422)
    expect((await t.app.inject({ url: '/api/share' })).statusCode).toBe(422)
    await t.app.inject({ url: `/api/shares/delete?id=${s.id}`, headers: bearer(seller) })
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}` })).statusCode).toBe(404)
  })

  it('counts a visit once per visitor per day, and not the owner\'s', async () => {
    const s = (await create(seller, newShare())).json().data
    const visit = (vid?: string, token?: string) =>
      t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: { ...(vid ? { 'x-visitor-id': signVisitorId(vid, SESSION_SECRET) } : {}), ...(token ? bearer(token) : {}) } })
    const a = 'visitor-aaaaaaaaaaaaaaaa'
    const b = 'visitor-bbbbbbbbbbbbbbbb'
    expect((await visit(a)).json().data.visit_count).toBe(1)
    expect((await visit(a)).json().data.visit_count).toBe(1)
    expect((await visit(b)).json().data.visit_count).toBe(2)
    await visit(undefined, seller)
    await t.app.visits.flush()
    const [row] = await t.db.select({ n: shares.visitCount }).from(shares).where(eq(shares.id, s.id))
    expect(row!.n).toBe(2)
    expect((await visit(a)).json().data.visit_count).toBe(2)
  })
})

describe('visit counts are batched off the hot path (issue 24)', () => {
  it('many views at once: no write per view, each visitor counted once, the batch written when the API stops', async () => {
    const own = await buildTestApp()
    try {
      const owner = await own.login(DEMO_SELLER.userName, DEMO_PASSWORD)
      const s = (await own.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(owner), payload: newShare() })).json().data
      const count = async () => (await own.db.select({ n: shares.visitCount }).from(shares).where(eq(shares.id, s.id)))[0]!.n
      const visitors = Array.from({ length: 40 }, (_, i) => `visitor-batch-${String(i).padStart(10, '0')}`)
      // Each visitor twice, all at once: the page shows the honest count at once.
      const answers = await Promise.all([...visitors, ...visitors].map((v) => own.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: { 'x-visitor-id': signVisitorId(v, SESSION_SECRET) } })))
      expect(answers.every((r) => r.statusCode === 200)).toBe(true)
      expect(Math.max(...answers.map((r) => r.json().data.visit_count))).toBe(40)
      // Not yet in the database (the batch waits for its timer), so no view waited for a write.
      expect(await count()).toBe(0)
      // Stopping the API writes the batch, without anyone calling flush().
      await own.app.close()
      expect(await count()).toBe(40)
    } finally {
      await own.close()
    }
  })
})

describe('the visitor id (issue 6: signed, not trusted as sent)', () => {
  it('a forged, tampered or foreign-signed x-visitor-id counts as the caller\'s address, not as a new visitor', async () => {
    const s = (await create(seller, newShare())).json().data
    const ip = freshIp()
    const visit = (headers: Record<string, string> = {}) => t.app.inject({ url: `/api/share?unicode=${s.unicode}`, remoteAddress: ip, headers: { 'user-agent': 'UA 1', ...headers } })
    expect((await visit()).json().data.visit_count).toBe(1)
    const signed = signVisitorId('visitor-cccccccccccccccc', SESSION_SECRET)
    for (const forged of [
      'visitor-dddddddddddddddd',
      signed.replace('visitor-cccccccccccccccc', 'visitor-eeeeeeeeeeeeeeee'),
      `${signed.slice(0, -3)}xyz`,
      signVisitorId('visitor-ffffffffffffffff', 'another secret'),
    ]) {
      expect((await visit({ 'x-visitor-id': forged })).json().data.visit_count, forged).toBe(1)
    }
    // A genuinely signed id is a visitor of its own.
    expect((await visit({ 'x-visitor-id': signed })).json().data.visit_count).toBe(2)
    await t.app.visits.flush()
    const [row] = await t.db.select({ n: shares.visitCount }).from(shares).where(eq(shares.id, s.id))
    expect(row!.n).toBe(2)
  })
})

describe('a deleted share (issue 13: buyers keep what they paid for)', () => {
  it('stays readable by its buyers — by code when signed in, by order number — and by owner and admin; nobody else finds it and nobody can buy it', async () => {
    const s = (await create(seller, newShare({ price: 3 }))).json().data
    await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
    const buyer = await t.login(DEMO_BUYER.userName, DEMO_PASSWORD)
    const bought = await t.app.inject({ method: 'POST', url: '/api/orders/create', headers: bearer(buyer), payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })
    const { orderNo } = bought.json().data as { orderNo: string }
    const paid = t.app.payments.sandbox!.settle(orderNo, 300, true)
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: paid.headers, payload: paid.body })).statusCode).toBe(200)
    const anonymousBuyer = (await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })).json().data as { orderNo: string }
    const paidToo = t.app.payments.sandbox!.settle(anonymousBuyer.orderNo, 300, true)
    await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: paidToo.headers, payload: paidToo.body })

    expect((await t.app.inject({ url: `/api/shares/delete?id=${s.id}`, headers: bearer(seller) })).statusCode).toBe(200)

    for (const token of [buyer, seller, admin]) {
      const res = await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(token) })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data).toMatchObject({ unicode: s.unicode, content: SECRET, for_sale: false })
    }
    for (const no of [orderNo, anonymousBuyer.orderNo]) {
      const res = await t.app.inject({ url: `/api/share?third_party_trade_no=${no}` })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data).toMatchObject({ unicode: s.unicode, content: SECRET, payment_status: 'Completed', for_sale: false })
    }

    const stranger = await t.login((await createUser(t.db)).userName, USER_PASSWORD)
    for (const headers of [{}, bearer(stranger)]) {
      const res = await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers })
      expect(res.statusCode).toBe(404)
      expect(res.body).not.toContain(SECRET)
    }
    const again = await t.app.inject({ method: 'POST', url: '/api/orders/create', headers: bearer(stranger), payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })
    expect(again.statusCode).toBe(404)
  })
})
