// Dead links end to end through the API (issue 25), against a local fixture standing in for the
// netdisks (LINK_CHECK_ALLOW_PRIVATE on here; the guard's own tests run without it, check.test.ts):
// the check on publish and in share review, two strikes, the seller's message, no new orders, the edit
// that puts a share back on sale, the schedule and its per-host limit, and the buyer's refund after the
// fix window on a movable clock — once, under replays and two API instances.
import { and, eq, ne } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint } from '#contract/http.ts'
import { requestOf } from '#contract/client.ts'
import { BUYER_KEY_HEADER } from '#contract/codes.ts'
import { linksApi } from '#contract/links.ts'
import { ordersApi } from '#contract/orders.ts'
import { shareApi, sharesApi } from '#contract/shares.ts'
import { reportsApi } from '#contract/moderation.ts'
import { LinkFixture } from '../../../test/fakes/link-fixture.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, freshIp, testConfig, type TestApp, uniquePhone } from '../../../test/helpers.ts'
import { buildApp } from '../../app.ts'
import { openDatabase } from '../../db/client.ts'
import { auditEvents, deadLinkRefunds, ledgerEntries, linkStates, orders, privateMessages, shares, users } from '../../db/schema/index.ts'
import { newUnicode } from '../shares/rules.ts'
import type { Resolver } from './guard.ts'
import { sweepDeadLinkRefunds, sweepLinks } from './service.ts'

const HOUR = 3_600_000
let t: TestApp
let web: LinkFixture
let admin: string
let now = Date.now()
const clock = () => new Date(now)
/** Every host name is the fixture. */
const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
const linkCheck = { allowPrivate: true, refundDays: 7, fixHours: 48, hostConcurrency: 2, hostIntervalMs: 0, timeoutMs: 3000, checkOnSave: true }

type Res = { statusCode: number; json: () => { code: number; msg: string; data: any } } // eslint-disable-line @typescript-eslint/no-explicit-any
/** One call of a contract endpoint through the app (the typed client's request, injected). */
async function call<E extends Endpoint>(e: E, input: { query?: unknown; body?: unknown } = {}, headers: Record<string, string> = {}, app: FastifyInstance = t.app): Promise<Res> {
  const r = requestOf('http://x', e, input)
  return app.inject({ method: r.method, url: r.url.pathname + r.url.search, headers: { ...headers, ...(r.body ? { 'content-type': 'application/json' } : {}) }, payload: r.body, remoteAddress: freshIp() }) as unknown as Promise<Res>
}
async function ok<E extends Endpoint>(e: E, input: { query?: unknown; body?: unknown } = {}, headers: Record<string, string> = {}) {
  const res = await call(e, input, headers)
  expect(res.statusCode, JSON.stringify(res.json())).toBeLessThan(300)
  return res.json().data as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  web = await LinkFixture.start()
  t = await buildTestApp({ config: { seedDemo: false, linkCheck }, clock, linkResolver: resolver })
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(async () => {
  await t?.close()
  await web?.stop()
})

/** A seller who may publish (bound phone, agreed terms) and its token. */
async function newSeller() {
  const u = await createUser(t.db, { phone: uniquePhone() })
  await t.db.update(users).set({ termsAgreedAt: new Date() }).where(eq(users.id, u.id))
  return { id: u.id, token: await t.login(u.userName, u.password) }
}

let pathNo = 0
/** A netdisk share on "pan.baidu.com" (the fixture), published through the API and approved. */
async function publishedShare(seller: { token: string }) {
  const path = `/s/${++pathNo}`
  web.page(path, '<html>文件列表 notes.pdf</html>')
  const s = await ok(sharesApi.new, { body: { title: `Notes ${pathNo}`, type: 'netdisk', content: web.url(path, 'pan.baidu.com'), extraction_code: 'ab12', price: 10 } }, bearer(seller.token))
  await t.app.links.idle()
  await ok(sharesApi.adminUpdate, { body: { id: s.id, status: 'approved' } }, bearer(admin))
  return { id: s.id as number, unicode: s.unicode as string, path }
}
const kill = (path: string) => web.page(path, '<title>百度网盘-链接不存在</title>啊哦，你来晚了，分享的文件已经被取消了')
const checkNow = (id: number) => ok(linksApi.checkNow, { body: { id } }, bearer(admin))

describe('checks on publish and in review', () => {
  it('checks a new link at once; admins see the result in share review and the history', async () => {
    const seller = await newSeller()
    web.page('/review', '<html>ok</html>')
    const s = await ok(sharesApi.new, { body: { title: 'Review me', type: 'url', content: web.url('/review', 'files.example.com'), price: 1 } }, bearer(seller.token))
    await t.app.links.idle()
    const review = await ok(sharesApi.adminList, { query: { keyword: s.unicode } }, bearer(admin))
    expect(review.list[0]).toMatchObject({ status: 'under_review', link: { state: 'ok', dead_streak: 0, stopped_at: null } })
    const history = await ok(linksApi.history, { query: { id: s.id } }, bearer(admin))
    expect(history.list).toHaveLength(1)
    expect(history.list[0]).toMatchObject({ result: 'ok', trigger: 'publish', http_status: 200 })
    // A text share has no link to check.
    const text = await ok(sharesApi.new, { body: { title: 'Text', type: 'text', content: 'secret', price: 1 } }, bearer(seller.token))
    await t.app.links.idle()
    const refused = await call(linksApi.checkNow, { body: { id: text.id } }, bearer(admin))
    expect(refused.statusCode).toBe(409)
    expect(refused.json().msg).toBe('links.notALink')
    expect((await call(linksApi.checkNow, { body: { id: 99999999 } }, bearer(admin))).statusCode).toBe(404)
    expect((await call(linksApi.checkNow, { body: { id: 'x' } }, bearer(admin))).statusCode).toBe(422)
    expect((await call(linksApi.checkNow, { body: { id: s.id } }, bearer(seller.token))).statusCode).toBe(403)
  })

  it('checks at once when a buyer reports that the link does not work', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    kill(s.path)
    await ok(reportsApi.create, { body: { unicode: s.unicode, reason: 'dead_link' } })
    await t.app.links.idle()
    const history = await ok(linksApi.history, { query: { id: s.id } }, bearer(admin))
    expect(history.list[0]).toMatchObject({ result: 'dead', trigger: 'report' })
  })
})

describe('two strikes', () => {
  it('stops the sales on the second dead check, tells the seller, refuses orders; a fixed link is back on sale without review', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    kill(s.path)
    const first = await checkNow(s.id)
    expect(first).toMatchObject({ check: { result: 'dead', trigger: 'admin' }, link: { state: 'dead', dead_streak: 1, stopped_at: null }, for_sale: true })
    expect(first.check.reason).toMatch(/^marker:baidu:/)
    expect(await t.db.select().from(privateMessages).where(eq(privateMessages.userId, seller.id))).toHaveLength(0)
    const second = await checkNow(s.id)
    expect(second).toMatchObject({ link: { state: 'dead', dead_streak: 2 }, for_sale: false })
    expect(second.link.stopped_at).not.toBeNull()
    // The seller is told once, with the way to the edit page.
    await checkNow(s.id)
    const told = await t.db.select().from(privateMessages).where(eq(privateMessages.userId, seller.id))
    expect(told).toHaveLength(1)
    expect(told[0]!.content).toContain(`/share-manage/edit/${s.id}`)
    // The share page says the link is being fixed; no new orders.
    expect(await ok(shareApi.lookup, { query: { unicode: s.unicode } })).toMatchObject({ for_sale: false, link_fixing: true, status: 'approved' })
    const order = await call(ordersApi.create, { body: { unicode: s.unicode, paymentMethod: 'Alipay' } })
    expect(order.statusCode).toBe(409)
    expect(order.json().msg).toBe('shares.linkBeingFixed')
    // The seller's list shows the link's state and last check.
    const mine = await ok(sharesApi.list, {}, bearer(seller.token))
    expect(mine.list.find((x: { id: number }) => x.id === s.id).link).toMatchObject({ state: 'dead', dead_streak: 3 })
    // An edit of the link alone that passes: back on sale, still approved (no new review).
    web.page('/fixed', '<html>文件列表</html>')
    const edited = await ok(sharesApi.update, { body: { id: s.id, content: web.url('/fixed', 'pan.baidu.com') } }, bearer(seller.token))
    expect(edited).toMatchObject({ status: 'approved', for_sale: true })
    expect(edited.link_fixing).toBeUndefined()
    expect((await ok(shareApi.lookup, { query: { unicode: s.unicode } })).for_sale).toBe(true)
    expect((await call(ordersApi.create, { body: { unicode: s.unicode, paymentMethod: 'Alipay' } })).statusCode).toBe(201)
  })

  it('an edit whose new link is dead too keeps the share stopped; an unclear answer neither counts nor resets', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    kill(s.path)
    await checkNow(s.id)
    web.page(s.path, 'temporarily', 503)
    expect((await checkNow(s.id)).link).toMatchObject({ state: 'unknown', dead_streak: 1, stopped_at: null })
    kill(s.path)
    expect((await checkNow(s.id)).for_sale).toBe(false)
    kill('/still-dead')
    const edited = await ok(sharesApi.update, { body: { id: s.id, content: web.url('/still-dead', 'pan.baidu.com') } }, bearer(seller.token))
    expect(edited).toMatchObject({ status: 'approved', for_sale: false, link_fixing: true })
    // Changing the title as well is a new review, as any reviewed change.
    web.page('/other', 'fine')
    const retitled = await ok(sharesApi.update, { body: { id: s.id, title: 'New title', content: web.url('/other', 'pan.baidu.com') } }, bearer(seller.token))
    expect(retitled.status).toBe('under_review')
    expect(retitled.link_fixing).toBe(true)
    // No longer a link: nothing left to fix (a reviewed change, as any other).
    const text = await ok(sharesApi.update, { body: { id: s.id, type: 'text', content: 'plain secret' } }, bearer(seller.token))
    expect(text.status).toBe('under_review')
    expect(text.link_fixing).toBeUndefined()
    // The schedule no longer picks it.
    await t.db.update(linkStates).set({ nextCheckAt: new Date(now - 1000) }).where(eq(linkStates.shareId, s.id))
    await ok(sharesApi.adminUpdate, { body: { id: s.id, status: 'approved' } }, bearer(admin))
    await t.db.update(linkStates).set({ nextCheckAt: new Date(now + 48 * HOUR) }).where(ne(linkStates.shareId, s.id))
    expect((await sweepLinks(t.app)).checked).toBe(0)
  })
})

describe('the schedule', () => {
  /** Approved link shares inserted directly, due now, on the given hosts. */
  async function dueShares(hosts: string[], perHost: number) {
    const seller = await createUser(t.db)
    const ids: number[] = []
    for (const host of hosts) {
      for (let i = 0; i < perHost; i++) {
        const [row] = await t.db
          .insert(shares)
          .values({ userId: seller.id, title: `${host} ${i}`, unicode: newUnicode(), type: 'url', contentEnc: t.app.cipher.encrypt(web.url(`/sched/${host}/${i}`, host)), priceFen: 100, status: 'approved' })
          .returning()
        await t.db.insert(linkStates).values({ shareId: row!.id, host, nextCheckAt: new Date(now - 1000) })
        ids.push(row!.id)
      }
    }
    return ids
  }

  it('checks the due approved links, each host at most hostConcurrency at a time, and schedules the next within the day', async () => {
    // Older rows out of the way: only this test's links are due.
    await t.db.update(linkStates).set({ nextCheckAt: new Date(now + 48 * HOUR) })
    web.delayMs = 80
    web.peakByHost.clear()
    const ids = await dueShares(['a.example.com', 'b.example.com'], 6)
    const started = Date.now()
    try {
      expect((await sweepLinks(t.app)).checked).toBe(12)
    } finally {
      web.delayMs = 0
    }
    expect(web.byHost.get('a.example.com')).toBe(6)
    expect(web.byHost.get('b.example.com')).toBe(6)
    // At most 2 at a time per host (hostConcurrency), and the two hosts side by side.
    expect(web.peakByHost.get('a.example.com')).toBe(2)
    expect(web.peakByHost.get('b.example.com')).toBe(2)
    expect(t.app.links.limiter.peakByHost.get('a.example.com')).toBeLessThanOrEqual(2)
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 80)
    const states = await t.db.select().from(linkStates).where(eq(linkStates.host, 'a.example.com'))
    for (const st of states) {
      expect(st.state).toBe('ok')
      expect(st.nextCheckAt.getTime()).toBeGreaterThanOrEqual(now + 22 * HOUR)
      expect(st.nextCheckAt.getTime()).toBeLessThanOrEqual(now + 24 * HOUR)
    }
    // Nothing is due any more: a second sweep checks nothing.
    expect((await sweepLinks(t.app)).checked).toBe(0)
    expect(ids).toHaveLength(12)
  })

  it('leaves shares not on sale alone, knows links it never saw, and gives two strikes on its own', async () => {
    await t.db.update(linkStates).set({ nextCheckAt: new Date(now + 48 * HOUR) })
    const seller = await createUser(t.db)
    const [review] = await t.db
      .insert(shares)
      .values({ userId: seller.id, title: 'Under review', unicode: newUnicode(), type: 'url', contentEnc: t.app.cipher.encrypt(web.url('/x', 'c.example.com')), priceFen: 100, status: 'under_review' })
      .returning()
    await t.db.insert(linkStates).values({ shareId: review!.id, host: 'c.example.com', nextCheckAt: new Date(now - 1000) })
    kill('/sched/dead')
    const [live] = await t.db
      .insert(shares)
      .values({ userId: seller.id, title: 'Dies', unicode: newUnicode(), type: 'netdisk', contentEnc: t.app.cipher.encrypt(web.url('/sched/dead', 'pan.baidu.com')), priceFen: 100, status: 'approved' })
      .returning()
    // No state row yet (a share from before the checker): the sweep makes one, due within the day.
    expect((await sweepLinks(t.app)).checked).toBe(0)
    const [made] = await t.db.select().from(linkStates).where(eq(linkStates.shareId, live!.id))
    expect(made!.nextCheckAt.getTime()).toBeLessThanOrEqual(now + 24 * HOUR)
    await t.db.update(linkStates).set({ nextCheckAt: new Date(now - 1000) }).where(eq(linkStates.shareId, live!.id))
    expect((await sweepLinks(t.app)).checked).toBe(1)
    // A dead link is looked at again within the hour.
    const [after] = await t.db.select().from(linkStates).where(eq(linkStates.shareId, live!.id))
    expect(after!.nextCheckAt.getTime()).toBeLessThanOrEqual(now + HOUR)
    now += HOUR
    expect((await sweepLinks(t.app)).checked).toBe(1)
    const [stopped] = await t.db.select().from(shares).where(eq(shares.id, live!.id))
    expect(stopped!.linkStoppedAt).not.toBeNull()
    const [untouched] = await t.db.select().from(linkStates).where(eq(linkStates.shareId, review!.id))
    expect(untouched!.checks).toBe(0)
  })
})

describe('the buyer of a dead link', () => {
  /** A paid order of the share through the sandbox: its number and buyer key. */
  async function paidOrder(unicode: string) {
    const created = await ok(ordersApi.create, { body: { unicode, paymentMethod: 'Alipay' } })
    const [row] = await t.db.select().from(orders).where(eq(orders.orderNo, created.orderNo))
    const n = t.app.payments.sandbox!.settle(created.orderNo, row!.amountFen, true)
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })).statusCode).toBeLessThan(300)
    return { orderNo: created.orderNo as string, buyerKey: created.buyerKey as string, id: row!.id }
  }
  const byOrder = (o: { orderNo: string; buyerKey: string }) => ok(shareApi.lookup, { query: { third_party_trade_no: o.orderNo } }, { [BUYER_KEY_HEADER]: o.buyerKey })
  const requestRefund = (o: { orderNo: string; buyerKey?: string }) => call(linksApi.refund, { body: { orderNo: o.orderNo } }, o.buyerKey ? { [BUYER_KEY_HEADER]: o.buyerKey } : {})

  it('sees the link known dead and asks a refund, made once after the fix window — under replays and two instances', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    const order = await paidOrder(s.unicode)
    expect((await byOrder(order)).dead_link).toBeUndefined()
    kill(s.path)
    await checkNow(s.id)
    const stop = await checkNow(s.id)
    const seen = await byOrder(order)
    expect(seen.content).toBeDefined()
    expect(seen.dead_link).toMatchObject({ order_no: order.orderNo, refund: 'available', seller_told_at: stop.link.stopped_at })
    expect(new Date(seen.dead_link.refund_due_at).getTime() - new Date(stop.link.stopped_at).getTime()).toBe(48 * HOUR)
    // Only the buyer may ask: the order number alone is not enough.
    expect((await requestRefund({ orderNo: order.orderNo })).statusCode).toBe(403)
    const asked = await requestRefund(order)
    expect(asked.statusCode).toBe(200)
    expect(asked.json().data).toMatchObject({ refund: 'requested' })
    expect((await requestRefund(order)).json().data).toMatchObject({ refund: 'requested' })
    // Inside the window nothing is refunded.
    now += 47 * HOUR
    expect(await sweepDeadLinkRefunds(t.app)).toBe(0)
    now += 2 * HOUR
    // A second API instance on the same database, and replays of the sweep on both.
    const second = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: 'memory://' }) : null
    const other = await buildApp({ config: testConfig({ ...t.app.config }), db: second?.db ?? t.db, clock, linkResolver: resolver, logger: false })
    try {
      const counts = await Promise.all([sweepDeadLinkRefunds(t.app), sweepDeadLinkRefunds(other), sweepDeadLinkRefunds(t.app), sweepDeadLinkRefunds(other)])
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1)
      expect(await sweepDeadLinkRefunds(other)).toBe(0)
    } finally {
      await other.close()
      await second?.close()
    }
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.paymentStatus).toBe('Refund')
    const refunds = await t.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'refund')))
    expect(refunds).toHaveLength(1)
    const audits = await t.db.select().from(auditEvents).where(and(eq(auditEvents.subjectType, 'order'), eq(auditEvents.subjectId, order.id), eq(auditEvents.action, 'refund')))
    expect(audits).toHaveLength(1)
    expect(audits[0]!.reason).toBe('dead_link')
    const [request] = await t.db.select().from(deadLinkRefunds).where(eq(deadLinkRefunds.orderId, order.id))
    expect(request!.state).toBe('refunded')
    // The content is hidden after the refund.
    const after = await byOrder(order)
    expect(after.content).toBeUndefined()
    expect(after).toMatchObject({ payment_status: 'Refund', dead_link: { refund: 'refunded' } })
    // A replayed request changes nothing.
    expect((await requestRefund(order)).json().data).toMatchObject({ refund: 'refunded' })
    expect(await t.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'refund')))).toHaveLength(1)
  })

  it('past the fix window a request is refunded at once; a fixed link cancels the waiting ones; too old an order is refused', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    const early = await paidOrder(s.unicode)
    now += 8 * 24 * HOUR
    const waiting = await paidOrder(s.unicode)
    const late = await paidOrder(s.unicode)
    kill(s.path)
    await checkNow(s.id)
    await checkNow(s.id)
    // Paid more than DEAD_LINK_REFUND_DAYS ago: no offer, and a request is refused.
    expect((await byOrder(early)).dead_link).toBeUndefined()
    const old = await requestRefund(early)
    expect(old.statusCode).toBe(409)
    expect(old.json().msg).toBe('links.refund.tooLate')
    expect((await requestRefund(waiting)).json().data.refund).toBe('requested')
    now += 49 * HOUR
    const atOnce = await requestRefund(late)
    expect(atOnce.json().data.refund).toBe('refunded')
    const [lateRow] = await t.db.select().from(orders).where(eq(orders.id, late.id))
    expect(lateRow!.paymentStatus).toBe('Refund')
    // The seller fixes the link before the sweep comes: the waiting request is cancelled, nothing refunded.
    web.page(s.path, 'fine again')
    expect((await checkNow(s.id)).for_sale).toBe(true)
    expect(await sweepDeadLinkRefunds(t.app)).toBe(0)
    const [request] = await t.db.select().from(deadLinkRefunds).where(eq(deadLinkRefunds.orderId, waiting.id))
    expect(request!.state).toBe('cancelled')
    const [waitingRow] = await t.db.select().from(orders).where(eq(orders.id, waiting.id))
    expect(waitingRow!.paymentStatus).toBe('Completed')
    // A link that is not dead: nothing to ask.
    expect((await requestRefund(waiting)).statusCode).toBe(409)
  })
})

describe('admin views', () => {
  it('lists links by state, seller and host, and a seller\'s dead-link rate', async () => {
    const seller = await newSeller()
    const s = await publishedShare(seller)
    kill(s.path)
    await checkNow(s.id)
    await checkNow(s.id)
    const [u] = await t.db.select().from(users).where(eq(users.id, seller.id))
    const stopped = await ok(linksApi.adminList, { query: { state: 'stopped', seller: u!.userName } }, bearer(admin))
    expect(stopped.list.map((r: { share_id: number }) => r.share_id)).toEqual([s.id])
    expect(stopped.list[0]).toMatchObject({ host: 'pan.baidu.com', link: { state: 'dead' }, checks: 3, dead_checks: 2 })
    expect((await ok(linksApi.adminList, { query: { state: 'ok', seller: u!.userName } }, bearer(admin))).total).toBe(0)
    expect((await ok(linksApi.adminList, { query: { host: 'nowhere.example', seller: u!.userName } }, bearer(admin))).total).toBe(0)
    expect((await call(linksApi.adminList, { query: { state: 'bogus' } }, bearer(admin))).statusCode).toBe(422)
    const rate = await ok(linksApi.sellerRate, { query: { user_id: seller.id } }, bearer(admin))
    expect(rate).toMatchObject({ checks: 3, dead_checks: 2, links: 1, dead_links: 1 })
    expect(rate.rate).toBeCloseTo(2 / 3, 3)
    const worst = await ok(linksApi.sellerRates, {}, bearer(admin))
    expect(worst.list.find((r: { seller_id: number }) => r.seller_id === seller.id)).toMatchObject({ user_name: u!.userName, dead_checks: 2, checks: 3 })
    const rates = worst.list.map((r: { rate: number }) => r.rate)
    expect(rates).toEqual([...rates].sort((a, b) => b - a))
    expect((await call(linksApi.sellerRates, {}, bearer(seller.token))).statusCode).toBe(403)
  })
})
