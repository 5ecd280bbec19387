import { eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { orderTimes } from './factories.ts'
import { appMeta, orders, packages, users } from './schema/index.ts'
import { openSubscription } from '../modules/subscriptions/index.ts'

const DAY_MS = 24 * 3600 * 1000

/**
 * Demo packages (issue 8): two on sale, and `demo_buyer` subscribed to the first through a paid sandbox
 * order three days ago, so the subscription list and the share page's free unlock show at first start.
 * Runs once (app_meta), after the demo users exist.
 */
export async function seedDemoPackages(db: Database): Promise<void> {
  const [buyer] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_buyer'))
  if (!buyer) return
  const claimed = await db.insert(appMeta).values({ key: 'seed.demo-packages', value: new Date().toISOString() }).onConflictDoNothing().returning()
  if (claimed.length === 0) return
  const [monthly] = await db
    .insert(packages)
    .values([
      { name: '月度会员 / Monthly', downloadLimit: 3, priceFen: 1990, durationDays: 30, status: 'on_sale' },
      { name: '年度会员 / Yearly', downloadLimit: 10, priceFen: 19900, durationDays: 365, status: 'on_sale' },
    ])
    .returning()
  const times = orderTimes(new Date(Date.now() - 3 * DAY_MS), 'Completed')
  const [order] = await db
    .insert(orders)
    .values({
      ...times,
      productType: 'package',
      packageId: monthly!.id,
      sellerId: null,
      buyerId: buyer.id,
      productName: monthly!.name,
      amountFen: monthly!.priceFen,
      paymentMethod: 'Alipay',
      provider: 'sandbox',
      paymentStatus: 'Completed',
      providerTradeNo: `SBXDEMOPKG${times.createdAt.getTime()}`,
      feeFen: 0,
      sellerIncomeFen: 0,
    })
    .returning()
  await openSubscription(db, order!, times.paidAt!)
}
