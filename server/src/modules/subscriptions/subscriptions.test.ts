import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dayStart, shanghaiDay } from '#contract/days.ts'
import { yuanToFen } from '#contract/money.ts'
import { maskOrderNo } from '#contract/orders.ts'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { ledgerEntries, orders, shares, subscriptions, subscriptionUnlocks, users } from '../../db/schema/index.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, USER_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp, uniquePhone } from '../../../test/helpers.ts'

const DAY_MS = 24 * 3600 * 1000
// The movable clock of the app (injectable: app.clock). Starts at 10:00 Beijing time today.
let now = new Date(`${shanghaiDay(new Date())}T10:00:00+08:00`)
let t: TestApp
let admin: string
let seller: string
let sellerId: number

const SECRET = 'subscriber secret 订阅内容'

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now })
  admin = await t.login('admin', ADMIN_PASSWORD)
  seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  sellerId = (await t.db.select({ id: users.id }).from(users).where(eq(users.userName, DEMO_SELLER.userName)))[0]!.id
})
afterAll(() => t.close())

type ShareOut = { id: number; unicode: string; title: string }

async function publish(opts: { subscription?: 'open' | 'close'; approve?: boolean; token?: string } = {}): Promise<ShareOut> {
  const body = newShareBody(buildShare({ content: SECRET, priceFen: yuanToFen(8.8), subscription: opts.subscription ?? 'open' }))
  const res = await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(opts.token ?? seller), payload: body })
  expect(res.statusCode, res.body).toBe(201)
  const s = res.json().data as ShareOut
  if (opts.approve !== false) await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
  return s
}

async function newPackage(fields: { download_limit: number; duration_days?: number; price?: number; name?: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/packages/admin/create',
    headers: bearer(admin),
    payload: { name: fields.name ?? `Pack ${Math.random().toString(36).slice(2, 7)}`, price: fields.price ?? 9.9, duration_days: fields.duration_days ?? 30, download_limit: fields.download_limit },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().data as { id: number; price: number; duration_days: number }
}

/** What the sandbox gateway sends when the payer presses Pay. */
function notify(orderNo: string, amountFen: number) {
  const n = t.app.payments.sandbox!.settle(orderNo, amountFen, true)
  return { method: 'POST' as const, url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body }
}

async function buy(token: string, pkg: { id: number; price: number }, pay = true) {
  const res = await t.app.inject({ method: 'POST', url: '/api/packages/buy', headers: bearer(token), remoteAddress: freshIp(), payload: { id: pkg.id, paymentMethod: 'Alipay' } })
  expect(res.statusCode, res.body).toBe(201)
  const { orderNo } = res.json().data as { orderNo: string }
  if (pay) expect((await t.app.inject(notify(orderNo, yuanToFen(pkg.price)))).statusCode).toBe(200)
  return orderNo
}

/** A new user, logged in, subscribed to a new package of `limit` free unlocks a day. */
async function subscriber(limit: number, durationDays = 30) {
  const u = await createUser(t.db)
  const token = await t.login(u.userName, USER_PASSWORD)
  const pkg = await newPackage({ download_limit: limit, duration_days: durationDays })
  await buy(token, pkg)
  return { ...u, token, pkg }
}

/** The database's fingerprint once the visits counted so far are written (they are written a moment later). */
async function settledFingerprint() {
  await t.app.visits.flush()
  return dbFingerprint(t.db)
}

const unlock = (token: string, unicode: string) => t.app.inject({ method: 'POST', url: '/api/subscriptions/unlock', headers: bearer(token), payload: { unicode } })
const mine = async (token: string) => (await t.app.inject({ url: '/api/subscriptions/list', headers: bearer(token) })).json().data
const unlocksOf = (userId: number) => t.db.select().from(subscriptionUnlocks).where(eq(subscriptionUnlocks.userId, userId))
const subOf = async (userId: number) => (await t.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!

describe('buying a package', () => {
  it('paying opens the subscription for its duration; a replayed notify changes nothing; a second order extends it', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, USER_PASSWORD)
    const pkg = await newPackage({ download_limit: 2, duration_days: 30, price: 12.5 })
    const orderNo = await buy(token, pkg, false)
    const [pending] = await t.db.select().from(orders).where(eq(orders.orderNo, orderNo))
    expect(pending).toMatchObject({ productType: 'package', packageId: pkg.id, sellerId: null, amountFen: 1250, paymentStatus: 'Pending' })
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, u.id))).toHaveLength(0)

    const paid = notify(orderNo, 1250)
    expect((await t.app.inject(paid)).statusCode).toBe(200)
    const opened = await subOf(u.id)
    expect(opened.expiresAt.getTime()).toBe(now.getTime() + 30 * DAY_MS)
    expect(opened.lastOrderId).toBe(pending!.id)
    // The gateway sends the same notify again: nothing moves.
    await t.app.inject(paid)
    expect((await subOf(u.id)).expiresAt.getTime()).toBe(now.getTime() + 30 * DAY_MS)
    // No seller, so no ledger entry.
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, pending!.id))).toHaveLength(0)

    await buy(token, pkg)
    expect((await subOf(u.id)).expiresAt.getTime()).toBe(now.getTime() + 60 * DAY_MS)
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, u.id))).toHaveLength(1)
  })

  it('a tampered amount is refused and opens nothing', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, USER_PASSWORD)
    const pkg = await newPackage({ download_limit: 2, price: 30 })
    const orderNo = await buy(token, pkg, false)
    const before = await settledFingerprint()
    const res = await t.app.inject(notify(orderNo, 1))
    expect(res.statusCode).toBeGreaterThanOrEqual(400)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('an expired subscription renewed starts again now, not from its old expiry', async () => {
    const s = await subscriber(2, 10)
    const saved = now
    now = new Date(saved.getTime() + 15 * DAY_MS)
    try {
      expect((await mine(s.token)).list[0]).toMatchObject({ status: 'expired', remaining_today: 0 })
      await buy(s.token, s.pkg)
      const renewed = await subOf(s.id)
      expect(renewed.startsAt.getTime()).toBe(now.getTime())
      expect(renewed.expiresAt.getTime()).toBe(now.getTime() + 10 * DAY_MS)
    } finally {
      now = saved
    }
  })
})

describe('my subscriptions', () => {
  it('opened with its expiry and what is left today; expired once the time is past', async () => {
    const s = await subscriber(3, 7)
    const page = await mine(s.token)
    expect(page).toMatchObject({ total: 1, daily_limit: 3, used_today: 0, remaining_today: 3 })
    expect(page.list[0]).toMatchObject({ user_name: s.userName, package_id: s.pkg.id, status: 'opened', download_limit: 3, remaining_today: 3 })
    expect(new Date(page.list[0].expires_at).getTime()).toBe(now.getTime() + 7 * DAY_MS)
    const saved = now
    now = new Date(saved.getTime() + 7 * DAY_MS)
    try {
      expect(await mine(s.token)).toMatchObject({ daily_limit: 0, remaining_today: 0, list: [{ status: 'expired', remaining_today: 0 }] })
    } finally {
      now = saved
    }
  })

  it('several open packages do not add up: the highest daily limit applies (decision 054)', async () => {
    const s = await subscriber(2)
    const big = await newPackage({ download_limit: 5 })
    await buy(s.token, big)
    expect(await mine(s.token)).toMatchObject({ total: 2, daily_limit: 5, remaining_today: 5 })
    for (let i = 0; i < 3; i++) expect((await unlock(s.token, (await publish()).unicode)).statusCode).toBe(200)
    const page = await mine(s.token)
    expect(page).toMatchObject({ daily_limit: 5, used_today: 3, remaining_today: 2 })
    // Per subscription: the 2-a-day one is used up, the 5-a-day one has 2 left.
    const byLimit = Object.fromEntries((page.list as { download_limit: number; remaining_today: number }[]).map((x) => [x.download_limit, x.remaining_today]))
    expect(byLimit).toEqual({ 2: 0, 5: 2 })
    // The unlocks were recorded against the 5-a-day subscription.
    const [bigSub] = await t.db.select().from(subscriptions).where(and(eq(subscriptions.userId, s.id), eq(subscriptions.packageId, big.id)))
    expect(new Set((await unlocksOf(s.id)).map((u) => u.subscriptionId))).toEqual(new Set([bigSub!.id]))
  })
})

describe('a free unlock', () => {
  it('shows the content at once, is a zero-amount completed order under My orders, counts as a purchase, and creates no income', async () => {
    const s = await subscriber(3)
    const share = await publish()
    // Before: the share page tells the subscriber how many are left, and hides the content.
    const before = (await t.app.inject({ url: `/api/share?unicode=${share.unicode}`, headers: bearer(s.token) })).json().data
    expect(before.free_unlocks_left).toBe(3)
    expect(before.content).toBeUndefined()

    const res = await unlock(s.token, share.unicode)
    expect(res.statusCode, res.body).toBe(200)
    const data = res.json().data
    expect(res.json().msg).toBe('subscriptions.unlocked')
    expect(data).toMatchObject({ unicode: share.unicode, content: SECRET, already: false, remaining_today: 2, purchase_count: 1 })

    const [order] = await t.db.select().from(orders).where(eq(orders.orderNo, data.orderNo))
    expect(order).toMatchObject({
      productType: 'share',
      shareId: share.id,
      sellerId,
      buyerId: s.id,
      amountFen: 0,
      feeFen: 0,
      sellerIncomeFen: 0,
      paymentMethod: 'Subscription',
      provider: 'subscription',
      paymentStatus: 'Completed',
    })
    expect(order!.firstRevealedAt).not.toBeNull()
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, order!.id))).toHaveLength(0)
    expect((await t.db.select().from(shares).where(eq(shares.id, share.id)))[0]!.purchaseCount).toBe(1)
    expect(await unlocksOf(s.id)).toMatchObject([{ shareId: share.id, orderId: order!.id, day: shanghaiDay(now) }])

    // The subscriber reads it by its code like a buyer; the order is in My orders and the seller's list.
    const after = (await t.app.inject({ url: `/api/share?unicode=${share.unicode}`, headers: bearer(s.token) })).json().data
    expect(after.content).toBe(SECRET)
    expect(after.free_unlocks_left).toBeUndefined()
    const list = (await t.app.inject({ url: '/api/orders/list', headers: bearer(s.token) })).json().data.list
    expect(list.find((o: { orderNo: string }) => o.orderNo === data.orderNo)).toMatchObject({ amount: 0, paymentMethod: 'Subscription', payment_status: 'Completed', unicode: share.unicode })
    const sellers = (await t.app.inject({ url: `/api/orders/seller/list?unicode=${share.unicode}`, headers: bearer(seller) })).json().data.list
    // Masked for the seller (decision 102), its trade number (the order number itself) too.
    expect(sellers).toMatchObject([{ orderNo: maskOrderNo(data.orderNo), alipayTradeNo: maskOrderNo(data.orderNo), amount: 0, fee: 0, seller_income: 0 }])
    // The order number opens it too (SPEC §4 lookup), settled at once.
    const byOrder = (await t.app.inject({ url: `/api/share?third_party_trade_no=${data.orderNo}` })).json().data
    expect(byOrder).toMatchObject({ content: SECRET, payment_status: 'Completed' })
    expect(byOrder.third_party_trade_no).not.toBe('')
    const status = (await t.app.inject({ url: `/api/orders/payment-status?orderNo=${data.orderNo}` })).json().data
    expect(status).toMatchObject({ payment_status: 'Completed', paymentMethod: 'Subscription', amount: 0 })
  })

  it('the same share again uses nothing and just shows it (also a share bought before)', async () => {
    const s = await subscriber(3)
    const share = await publish()
    const first = (await unlock(s.token, share.unicode)).json().data
    const again = await unlock(s.token, share.unicode)
    expect(again.statusCode).toBe(200)
    expect(again.json().msg).toBe('subscriptions.alreadyYours')
    expect(again.json().data).toMatchObject({ already: true, orderNo: first.orderNo, content: SECRET, remaining_today: 2, purchase_count: 1 })
    // Five at once: still one.
    const burst = await Promise.all(Array.from({ length: 5 }, () => unlock(s.token, share.unicode)))
    expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(await unlocksOf(s.id)).toHaveLength(1)
    expect(await t.db.select().from(orders).where(and(eq(orders.buyerId, s.id), eq(orders.shareId, share.id)))).toHaveLength(1)
    expect((await mine(s.token)).remaining_today).toBe(2)

    // A share the subscriber paid for: no unlock used.
    const bought = await publish()
    const created = await t.app.inject({ method: 'POST', url: '/api/orders/create', headers: bearer(s.token), remoteAddress: freshIp(), payload: { unicode: bought.unicode, paymentMethod: 'Alipay' } })
    const orderNo = created.json().data.orderNo as string
    await t.app.inject(notify(orderNo, 880))
    expect((await unlock(s.token, bought.unicode)).json().data).toMatchObject({ already: true, orderNo, remaining_today: 2 })
    expect(await unlocksOf(s.id)).toHaveLength(1)
  })

  it(`20 concurrent unlocks with 3 left give exactly 3`, async () => {
    const s = await subscriber(3)
    const many = await Promise.all(Array.from({ length: 20 }, () => publish()))
    const results = await Promise.all(many.map((sh) => unlock(s.token, sh.unicode)))
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 200)).toHaveLength(3)
    expect(codes.filter((c) => c === 409)).toHaveLength(17)
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().msg).toBe('subscriptions.limitReached')
    expect(await unlocksOf(s.id)).toHaveLength(3)
    expect(await t.db.select().from(orders).where(and(eq(orders.buyerId, s.id), eq(orders.provider, 'subscription')))).toHaveLength(3)
    expect(await mine(s.token)).toMatchObject({ used_today: 3, remaining_today: 0 })
    // The limit reached: the share page no longer offers an unlock (0 left), and the API refuses it.
    const next = await publish()
    expect((await t.app.inject({ url: `/api/share?unicode=${next.unicode}`, headers: bearer(s.token) })).json().data.free_unlocks_left).toBe(0)
    const refused = await unlock(s.token, next.unicode)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ msg: 'subscriptions.limitReached', data: { daily_limit: 3 } })
  })

  it('the day is the Asia/Shanghai day: the allowance comes back at midnight Beijing time, not before', async () => {
    const s = await subscriber(1)
    const saved = now
    const day = shanghaiDay(now)
    try {
      now = new Date(`${day}T23:59:30+08:00`)
      expect((await unlock(s.token, (await publish()).unicode)).statusCode).toBe(200)
      expect((await unlock(s.token, (await publish()).unicode)).statusCode).toBe(409)
      now = new Date(`${day}T23:59:59.999+08:00`)
      expect((await unlock(s.token, (await publish()).unicode)).statusCode).toBe(409)
      // 00:00:30 in Beijing: a new day there, while it is still 16:00 of the same day in UTC.
      now = new Date(dayStart(day).getTime() + DAY_MS + 30_000)
      expect(now.toISOString().slice(0, 10)).toBe(day)
      expect((await mine(s.token)).remaining_today).toBe(1)
      expect((await unlock(s.token, (await publish()).unicode)).statusCode).toBe(200)
      expect((await unlocksOf(s.id)).map((u) => u.day).sort()).toEqual([day, shanghaiDay(now)])
    } finally {
      now = saved
    }
  })

  it('an expired subscription unlocks nothing; nor does no subscription', async () => {
    const s = await subscriber(3, 1)
    const share = await publish()
    const stranger = await createUser(t.db)
    const strangerToken = await t.login(stranger.userName, USER_PASSWORD)
    const saved = now
    now = new Date(saved.getTime() + DAY_MS)
    try {
      const before = await settledFingerprint()
      const res = await unlock(s.token, share.unicode)
      expect(res.statusCode).toBe(409)
      expect(res.json().msg).toBe('subscriptions.noSubscription')
      const none = await unlock(strangerToken, share.unicode)
      expect(none.json().msg).toBe('subscriptions.noSubscription')
      expect(await dbFingerprint(t.db)).toEqual(before)
      expect((await t.app.inject({ url: `/api/share?unicode=${share.unicode}`, headers: bearer(s.token) })).json().data.free_unlocks_left).toBeUndefined()
    } finally {
      now = saved
    }
  })

  it('refuses shares closed to subscribers, not approved, deleted, of a banned seller, and the own share — changing nothing', async () => {
    const s = await subscriber(5)
    const closed = await publish({ subscription: 'close' })
    const inReview = await publish({ approve: false })
    const deleted = await publish()
    await t.app.inject({ url: `/api/shares/delete?id=${deleted.id}`, headers: bearer(seller) })
    // A second seller who gets banned.
    const other = await createUser(t.db, { phone: uniquePhone() })
    await t.db.update(users).set({ termsAgreedAt: new Date() }).where(eq(users.id, other.id))
    const otherToken = await t.login(other.userName, USER_PASSWORD)
    const ofBanned = await publish({ token: otherToken })
    await t.db.update(users).set({ isBanned: 1 }).where(eq(users.id, other.id))
    // The subscriber's own share.
    await t.db.update(users).set({ phone: uniquePhone(), termsAgreedAt: new Date() }).where(eq(users.id, s.id))
    const own = await publish({ token: s.token })

    const before = await settledFingerprint()
    const expectRefused = async (unicode: string, status: number, msg: string) => {
      const res = await unlock(s.token, unicode)
      expect(res.statusCode, `${unicode}: ${res.body}`).toBe(status)
      expect(res.json().msg).toBe(msg)
    }
    await expectRefused(closed.unicode, 409, 'subscriptions.notOpenToSubscribers')
    await expectRefused(inReview.unicode, 409, 'shares.notForSale')
    await expectRefused(deleted.unicode, 404, 'shares.notFound')
    await expectRefused(ofBanned.unicode, 409, 'shares.notForSale')
    await expectRefused(own.unicode, 409, 'orders.ownShare')
    await expectRefused('ZZZZZZZZ', 404, 'shares.notFound')
    expect(await dbFingerprint(t.db)).toEqual(before)
    // The share page offers no unlock on those.
    for (const sh of [closed, inReview, own]) {
      expect((await t.app.inject({ url: `/api/share?unicode=${sh.unicode}`, headers: bearer(s.token) })).json().data.free_unlocks_left).toBeUndefined()
    }
  })

  it('bad input gets a 4xx with a message and changes nothing; a visitor gets 401', async () => {
    const s = await subscriber(2)
    const before = await settledFingerprint()
    for (const c of badInputs({ method: 'POST', url: '/api/subscriptions/unlock', headers: bearer(s.token), body: { fields: { unicode: { type: 'string', required: true } }, valid: { unicode: 'AbCd2345' } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/subscriptions/unlock', payload: { unicode: 'AbCd2345' } })).statusCode).toBe(401)
    expect((await t.app.inject({ url: '/api/subscriptions/list' })).statusCode).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('refunds', () => {
  it('a free unlock cannot be refunded', async () => {
    const s = await subscriber(2)
    const { orderNo } = (await unlock(s.token, (await publish()).unicode)).json().data
    const before = await settledFingerprint()
    const res = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo } })
    expect(res.statusCode).toBe(409)
    expect(res.json().msg).toBe('subscriptions.unlockNotRefundable')
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('a refunded package order takes its period back', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, USER_PASSWORD)
    const pkg = await newPackage({ download_limit: 2, duration_days: 30 })
    await buy(token, pkg)
    const second = await buy(token, pkg)
    expect((await subOf(u.id)).expiresAt.getTime()).toBe(now.getTime() + 60 * DAY_MS)
    const res = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: second } })
    expect(res.statusCode, res.body).toBe(200)
    expect((await subOf(u.id)).expiresAt.getTime()).toBe(now.getTime() + 30 * DAY_MS)
    // Refunding the other one too ends it now (not in the past).
    const [first] = await t.db.select().from(orders).where(and(eq(orders.buyerId, u.id), eq(orders.paymentStatus, 'Completed')))
    await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: first!.orderNo } })
    expect((await subOf(u.id)).expiresAt.getTime()).toBe(now.getTime())
    expect(await mine(token)).toMatchObject({ daily_limit: 0, list: [{ status: 'expired' }] })
  })
})

describe('admin list', () => {
  it('lists every subscription with user, package, times and tag; filters; 403 for others', async () => {
    const a = await subscriber(2)
    const res = await t.app.inject({ url: `/api/subscriptions/admin/list?keyword=${a.userName}`, headers: bearer(admin) })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ total: 1, list: [{ user_name: a.userName, package_id: a.pkg.id, status: 'opened' }] })
    expect((await t.app.inject({ url: `/api/subscriptions/admin/list?keyword=${a.userName}&status=expired`, headers: bearer(admin) })).json().data.total).toBe(0)
    expect((await t.app.inject({ url: '/api/subscriptions/admin/list', headers: bearer(a.token) })).statusCode).toBe(403)
    expect((await t.app.inject({ url: '/api/subscriptions/admin/list' })).statusCode).toBe(401)
    for (const c of badInputs({ method: 'GET', url: '/api/subscriptions/admin/list', headers: bearer(admin), query: { fields: { pageNum: { type: 'int' }, pageSize: { type: 'int' }, status: { type: 'string' }, keyword: { type: 'string', freeText: true } }, valid: {} } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
  })
})
