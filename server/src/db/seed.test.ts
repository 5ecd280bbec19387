import crypto from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, isNull, like, notLike, or, sum } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IncomeDaily, IncomeSummary } from '#contract/income.ts'
import { addDays, shanghaiDay } from '#contract/days.ts'
import { bearer, buildTestApp, dbFingerprint, DEMO_PASSWORD, type TestApp } from '../../test/helpers.ts'
import { ledgerEntries, orders, packages, sellerBalances, sellerDailyIncome, subscriptions, users } from './schema/index.ts'
import { DEMO_BUYER, DEMO_SELLER, seed } from './seed.ts'

let t: TestApp
let seedMs = 0
const contentKey = crypto.randomBytes(32).toString('base64')
beforeAll(async () => {
  t = await buildTestApp()
  // The demo marketplace (shares and orders) is seeded when the content key is known, as at start.
  const started = performance.now()
  await seed(t.db, { demo: true, contentKey, feeBasisPoints: 500 })
  seedMs = performance.now() - started
})
afterAll(() => t.close())

/** The orders of the demo income history (seed-income.ts) carry sandbox trade numbers of their own. */
const INCOME_HISTORY = 'SBXINCOME%'
const marketplaceOrders = () =>
  t.db
    .select()
    .from(orders)
    .where(and(eq(orders.productType, 'share'), or(isNull(orders.providerTradeNo), notLike(orders.providerTradeNo, INCOME_HISTORY))))
    .orderBy(asc(orders.id))

describe('the demo marketplace seed', () => {
  it('creates its orders at the time their order numbers carry (Asia/Shanghai, to the second)', async () => {
    const seeded = await marketplaceOrders()
    expect(seeded.map((o) => o.paymentStatus).sort()).toEqual(['Completed', 'Completed', 'Failed', 'Pending', 'Refund'])
    for (const o of await t.db.select().from(orders)) {
      const shanghai = new Date(o.createdAt.getTime() + 8 * 3600 * 1000).toISOString().replace(/\D/g, '').slice(0, 14)
      expect(o.orderNo.slice(2, 16), o.paymentStatus).toBe(shanghai)
    }
    const pending = seeded.find((o) => o.paymentStatus === 'Pending')!
    expect(pending.expiresAt.getTime()).toBeGreaterThan(Date.now())
  })

  it("posts the paid orders to the seller's ledger: two sales kept, one refunded", async () => {
    const [seller] = await t.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
    const ids = new Set((await marketplaceOrders()).map((o) => o.id))
    const entries = (await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.sellerId, seller!.id))).filter((e) => ids.has(e.orderId!))
    expect(entries.map((e) => e.kind).sort()).toEqual(['refund', 'sale', 'sale', 'sale'])
    // With the income history: the ledger sums to what the orders still Completed earned.
    const paid = await t.db.select().from(orders).where(eq(orders.paymentStatus, 'Completed'))
    const [total] = await t.db
      .select({ s: sum(ledgerEntries.amountFen) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.sellerId, seller!.id), isNotNull(ledgerEntries.orderId)))
    expect(Number(total!.s)).toBe(paid.reduce((n, o) => n + o.sellerIncomeFen!, 0))
  })
})

describe('the demo income history (seed-income.ts)', () => {
  it(`gives demo_seller 60 days of sales through the ledger, settled 24 h after payment, some not yet, two refunded (seeded in ${'<'} 2 s)`, async () => {
    const [seller] = await t.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
    const history = await t.db.select().from(orders).where(and(eq(orders.sellerId, seller!.id), like(orders.providerTradeNo, INCOME_HISTORY)))
    expect(history.length).toBeGreaterThan(120)
    const now = Date.now()
    const today = shanghaiDay()
    const days = new Set(history.map((o) => shanghaiDay(o.paidAt!)))
    expect(days.size).toBeGreaterThan(50)
    expect([...days].sort()[0]! >= addDays(today, -59)).toBe(true)
    for (const o of history) {
      expect(o.settleAt!.getTime() - o.paidAt!.getTime()).toBe(24 * 3600 * 1000)
      expect(o.paidAt!.getTime()).toBeLessThan(now)
      expect(o.sellerIncomeFen).toBe(o.amountFen - o.feeFen!)
    }
    const unsettled = history.filter((o) => o.paymentStatus === 'Completed' && o.settleAt!.getTime() > now)
    expect(unsettled.length).toBeGreaterThan(0)
    const refunded = history.filter((o) => o.paymentStatus === 'Refund')
    expect(refunded).toHaveLength(2)
    // One refunded after its settle time, one before.
    expect(refunded.map((o) => o.refundedAt! > o.settleAt!).sort()).toEqual([false, true])
    expect(seedMs).toBeLessThan(2000 * (process.env.CI ? 3 : 1.5))
  })

  it("answers the dashboard from it: the figures are the ledger's sums, every day of the last 30 has sales", async () => {
    const [seller] = await t.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
    const token = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    const summary = (await t.app.inject({ url: '/api/income/summary', headers: bearer(token) })).json().data as IncomeSummary
    const [balance] = await t.db.select().from(sellerBalances).where(eq(sellerBalances.sellerId, seller!.id))
    const [income] = await t.db
      .select({ s: sum(ledgerEntries.amountFen) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.sellerId, seller!.id), inArray(ledgerEntries.kind, ['sale', 'refund'])))
    expect(Math.round(summary.total * 100)).toBe(Number(income!.s))
    expect(balance!.incomeFen).toBe(Number(income!.s))
    expect(summary.unsettled).toBeGreaterThan(0)
    expect(summary.withdrawable).toBeGreaterThan(0)
    const daily = (await t.app.inject({ url: '/api/income/daily', headers: bearer(token) })).json().data as IncomeDaily
    expect(daily.list.filter((d) => d.orders > 0).length).toBeGreaterThan(25)
    const stored = await t.db.select().from(sellerDailyIncome).where(eq(sellerDailyIncome.sellerId, seller!.id))
    expect(stored.length).toBeGreaterThan(50)
  })

  it('runs once: seeding again (every start seeds) changes nothing', async () => {
    const before = await dbFingerprint(t.db)
    await seed(t.db, { demo: true, contentKey, feeBasisPoints: 500 })
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('the demo packages seed', () => {
  it('two packages on sale and demo_buyer subscribed through a paid order; seeding again adds nothing', async () => {
    const onSale = await t.db.select().from(packages).where(eq(packages.status, 'on_sale'))
    expect(onSale).toHaveLength(2)
    const [buyer] = await t.db.select().from(users).where(eq(users.userName, DEMO_BUYER.userName))
    const subs = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, buyer!.id))
    expect(subs).toHaveLength(1)
    expect(subs[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now())
    const [order] = await t.db.select().from(orders).where(eq(orders.id, subs[0]!.lastOrderId!))
    expect(order).toMatchObject({ productType: 'package', paymentStatus: 'Completed', buyerId: buyer!.id })
    await seed(t.db, { demo: true, contentKey: crypto.randomBytes(32).toString('base64'), feeBasisPoints: 500 })
    expect(await t.db.select().from(packages)).toHaveLength(2)
    expect(await t.db.select().from(subscriptions)).toHaveLength(1)
  })
})
