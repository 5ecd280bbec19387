import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { type orders, packages, subscriptions } from '../../db/schema/index.ts'
import type { ProductEffects } from '../orders/index.ts'

const DAY_MS = 24 * 3600 * 1000

/**
 * A paid package order opens the buyer's subscription to the package for its duration, or extends an
 * open one by it (DESIGN §3 Packages). Runs once per order: in the settling transaction, on the order's
 * one Pending → Completed move.
 */
export async function openSubscription(tx: Database, order: Pick<typeof orders.$inferSelect, 'id' | 'buyerId' | 'packageId'>, now: Date): Promise<void> {
  if (!order.buyerId || !order.packageId) return
  const [pkg] = await tx.select().from(packages).where(eq(packages.id, order.packageId))
  if (!pkg) return
  const period = pkg.durationDays * DAY_MS
  await tx
    .insert(subscriptions)
    .values({ userId: order.buyerId, packageId: pkg.id, startsAt: now, expiresAt: new Date(now.getTime() + period), lastOrderId: order.id, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [subscriptions.userId, subscriptions.packageId],
      set: {
        // An expired subscription starts again now; an open one runs on from its expiry.
        startsAt: sql`case when ${subscriptions.expiresAt} > ${now} then ${subscriptions.startsAt} else ${now} end`,
        expiresAt: sql`greatest(${subscriptions.expiresAt}, ${now}) + ${`${pkg.durationDays} days`}::interval`,
        lastOrderId: order.id,
        updatedAt: now,
      },
    })
}

/**
 * A refunded package order takes back the period it paid for: the subscription's expiry moves back by
 * the package's duration, never before now (an open subscription whose only period is refunded ends
 * now; an expired one stays as it was). Runs in the refund's transaction, once (the order's one
 * Completed → Refund move). The free unlocks already made stay (decision 055).
 */
export async function withdrawSubscriptionPeriod(tx: Database, order: Pick<typeof orders.$inferSelect, 'buyerId' | 'packageId'>, now: Date): Promise<void> {
  if (!order.buyerId || !order.packageId) return
  const [pkg] = await tx.select({ durationDays: packages.durationDays }).from(packages).where(eq(packages.id, order.packageId))
  if (!pkg) return
  await tx
    .update(subscriptions)
    .set({
      expiresAt: sql`greatest(${subscriptions.expiresAt} - ${`${pkg.durationDays} days`}::interval, least(${subscriptions.expiresAt}, ${now}))`,
      updatedAt: now,
    })
    .where(and(eq(subscriptions.userId, order.buyerId), eq(subscriptions.packageId, order.packageId)))
}

/** What a package order does to the buyer's subscription (the orders module calls it; decision 118). */
export const packageOrders: ProductEffects = { paid: openSubscription, refunded: withdrawSubscriptionPeriod }
