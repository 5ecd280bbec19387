import { and, eq, sql } from 'drizzle-orm'
import { addDays, dayStart, shanghaiDay } from '#contract/days.ts'
import type { Database } from './client.ts'
import { appMeta, orders, shares, users } from './schema/index.ts'
import { postRefund, postSale } from '../modules/ledger/index.ts'
import { newOrderNo, platformFee } from '../modules/orders/index.ts'

const HOUR = 3600_000
const DAY = 24 * HOUR
/** SPEC §5's 24-hour window: the demo's sales settle a day after payment. */
const DEMO_SETTLEMENT_MS = 24 * HOUR
const HISTORY_DAYS = 60

/** A fixed sequence (mulberry32), so every fresh start shows the same demo history. */
function demoRandom(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * 60 days of sales for the demo seller (issue 7: the first start shows a living dashboard): a few
 * sales a day of their approved shares, growing and busier at weekends, each Completed through the
 * ledger's `postSale` and settled 24 h after payment — so the last day's are still unsettled — and two
 * refunded (one before its settle time, one after). One transaction with its run-once mark
 * (`app_meta` seed.demo-income): all of it or nothing, once. Does nothing until the demo shares exist.
 */
export async function seedDemoIncome(db: Database, demo: { seller: string; buyer: string; feeBp: number }, now = new Date()): Promise<void> {
  const { feeBp } = demo
  const [seller] = await db.select({ id: users.id }).from(users).where(eq(users.userName, demo.seller))
  const [buyer] = await db.select({ id: users.id }).from(users).where(eq(users.userName, demo.buyer))
  if (!seller) return
  const forSale = await db
    .select({ id: shares.id, title: shares.title, priceFen: shares.priceFen })
    .from(shares)
    .where(and(eq(shares.userId, seller.id), eq(shares.status, 'approved')))
    .orderBy(shares.id)
  if (forSale.length === 0) return

  await db.transaction(async (tx) => {
    const first = await tx.insert(appMeta).values({ key: 'seed.demo-income', value: now.toISOString() }).onConflictDoNothing().returning()
    if (first.length === 0) return
    const random = demoRandom(20261123)
    const sales: (typeof orders.$inferInsert & { refundAt: Date | null })[] = []
    const today = shanghaiDay(now)
    for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
      const day = addDays(today, -daysAgo)
      const start = dayStart(day).getTime()
      const weekend = [0, 6].includes(new Date(`${day}T12:00:00+08:00`).getUTCDay())
      const count = Math.floor(random() * 3 + (HISTORY_DAYS - daysAgo) / 20 + (weekend ? 2 : 0))
      // Today has its last sale two hours ago, so some income is always unsettled on the first start.
      const times = Array.from({ length: count }, () => start + Math.floor(random() * DAY))
      if (daysAgo === 0) times.push(now.getTime() - 2 * HOUR)
      for (const [k, time] of times.entries()) {
        const paidAt = new Date(time)
        if (paidAt >= now || paidAt.getTime() < start) continue
        const share = forSale[Math.floor(random() * forSale.length)]!
        const fee = platformFee(share.priceFen, feeBp)
        const method = random() < 0.6 ? 'Alipay' : 'WeChat'
        sales.push({
          orderNo: newOrderNo(new Date(paidAt.getTime() - 60_000)),
          shareId: share.id,
          sellerId: seller.id,
          buyerId: buyer && random() < 0.3 ? buyer.id : null,
          productName: share.title,
          amountFen: share.priceFen,
          paymentMethod: method,
          provider: 'sandbox',
          paymentStatus: 'Completed',
          providerTradeNo: `SBXINCOME${paidAt.getTime()}${k}`,
          feeFen: fee,
          feeRateBp: feeBp,
          sellerIncomeFen: share.priceFen - fee,
          settleAt: new Date(paidAt.getTime() + DEMO_SETTLEMENT_MS),
          paidAt,
          createdAt: new Date(paidAt.getTime() - 60_000),
          expiresAt: new Date(paidAt.getTime() + 29 * 60_000),
          refundAt: null,
        })
      }
    }
    sales.sort((a, b) => a.paidAt!.getTime() - b.paidAt!.getTime())
    // Two refunds: three weeks ago two days after payment (settled income taken back), and three days
    // ago three hours after payment (still unsettled: it cancels out there).
    for (const [daysAgo, after] of [
      [21, 2 * DAY],
      [3, 3 * HOUR],
    ] as const) {
      const target = sales.find((s) => s.paidAt!.getTime() >= now.getTime() - daysAgo * DAY)
      if (target) {
        target.refundAt = new Date(target.paidAt!.getTime() + after)
        target.paymentStatus = 'Refund'
        target.refundedAt = target.refundAt
      }
    }
    const rows = await tx
      .insert(orders)
      .values(sales.map(({ refundAt: _, ...o }) => o))
      .returning()
    for (const [i, order] of rows.entries()) {
      await postSale(tx, order, order.paidAt!)
      const refundAt = sales[i]!.refundAt
      if (refundAt) await postRefund(tx, order, refundAt)
    }
    for (const share of forSale) {
      const sold = rows.filter((o) => o.shareId === share.id && o.paymentStatus === 'Completed').length
      await tx
        .update(shares)
        .set({ purchaseCount: sql`${shares.purchaseCount} + ${sold}`, visitCount: sql`${shares.visitCount} + ${sold * 4}` })
        .where(eq(shares.id, share.id))
    }
  })
}
