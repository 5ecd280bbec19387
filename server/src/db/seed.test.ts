import crypto from 'node:crypto'
import { and, asc, eq, isNotNull, sum } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/helpers.ts'
import { ledgerEntries, orders, packages, subscriptions, users } from './schema.ts'
import { DEMO_BUYER, DEMO_SELLER, seed } from './seed.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
  // The demo marketplace (shares and orders) is seeded when the content key is known, as at start.
  await seed(t.db, { demo: true, contentKey: crypto.randomBytes(32).toString('base64'), feeBasisPoints: 500 })
})
afterAll(() => t.close())

describe('the demo marketplace seed', () => {
  it('creates its orders at the time their order numbers carry (Asia/Shanghai, to the second)', async () => {
    const seeded = await t.db.select().from(orders).where(eq(orders.productType, 'share')).orderBy(asc(orders.id))
    expect(seeded.map((o) => o.paymentStatus).sort()).toEqual(['Completed', 'Completed', 'Failed', 'Pending', 'Refund'])
    for (const o of seeded) {
      const shanghai = new Date(o.createdAt.getTime() + 8 * 3600 * 1000).toISOString().replace(/\D/g, '').slice(0, 14)
      expect(o.orderNo.slice(2, 16), o.paymentStatus).toBe(shanghai)
    }
    const pending = seeded.find((o) => o.paymentStatus === 'Pending')!
    expect(pending.expiresAt.getTime()).toBeGreaterThan(Date.now())
  })

  it("posts the paid orders to the seller's ledger: two sales kept, one refunded", async () => {
    const [seller] = await t.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
    const entries = await t.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.sellerId, seller!.id), isNotNull(ledgerEntries.orderId)))
    expect(entries.map((e) => e.kind).sort()).toEqual(['refund', 'sale', 'sale', 'sale'])
    const paid = await t.db.select().from(orders).where(eq(orders.paymentStatus, 'Completed'))
    const [total] = await t.db
      .select({ s: sum(ledgerEntries.amountFen) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.sellerId, seller!.id), isNotNull(ledgerEntries.orderId)))
    expect(Number(total!.s)).toBe(paid.reduce((n, o) => n + o.sellerIncomeFen!, 0))
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
