import { and, eq, gt, lte, min, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { channels, type orders, sellerChannels } from '../../db/schema/index.ts'
import type { ProductEffects } from '../orders/index.ts'

const DAY_MS = 24 * 3600 * 1000

/**
 * The fee rate of a sale paid at `now`: the lowest rate among the seller's open channels, else the
 * default (DESIGN §3 Income). Runs in the settling transaction.
 */
export async function sellerFeeRateBp(tx: Database, sellerId: number, now: Date, defaultBp: number): Promise<number> {
  const [row] = await tx
    .select({ bp: min(sellerChannels.feeRateBp) })
    .from(sellerChannels)
    .where(and(eq(sellerChannels.sellerId, sellerId), lte(sellerChannels.startsAt, now), gt(sellerChannels.endsAt, now)))
  return row?.bp ?? defaultBp
}

/**
 * A paid channel order opens the channel for its service duration, once per order (unique key). A
 * seller who already has this channel open gets the new period after the current one ends.
 */
export async function openChannel(tx: Database, order: Pick<typeof orders.$inferSelect, 'id' | 'buyerId' | 'channelId'>, now: Date): Promise<void> {
  if (!order.buyerId || !order.channelId) return
  const [channel] = await tx.select().from(channels).where(eq(channels.id, order.channelId))
  if (!channel) return
  const [open] = await tx
    .select({ endsAt: sql<Date | null>`max(${sellerChannels.endsAt})`.mapWith(sellerChannels.endsAt) })
    .from(sellerChannels)
    .where(and(eq(sellerChannels.sellerId, order.buyerId), eq(sellerChannels.channelId, channel.id), gt(sellerChannels.endsAt, now)))
  const startsAt = open?.endsAt && open.endsAt > now ? open.endsAt : now
  await tx
    .insert(sellerChannels)
    .values({
      sellerId: order.buyerId,
      channelId: channel.id,
      orderId: order.id,
      feeRateBp: channel.feeRateBp,
      startsAt,
      endsAt: new Date(startsAt.getTime() + channel.serviceDurationDays * DAY_MS),
    })
    .onConflictDoNothing()
}

/**
 * A refunded channel order ends the period it paid for at `now` (a period not yet begun never
 * begins): the seller keeps no rate they are no longer paying for. Sales already paid keep theirs.
 */
export async function closeChannel(tx: Database, order: Pick<typeof orders.$inferSelect, 'id'>, now: Date): Promise<void> {
  await tx
    .update(sellerChannels)
    .set({ endsAt: sql`greatest(${sellerChannels.startsAt}, least(${sellerChannels.endsAt}, ${now}))` })
    .where(eq(sellerChannels.orderId, order.id))
}

/** What a channel order does to the seller's channels (the orders module calls it; decision 118). */
export const channelOrders: ProductEffects = { paid: openChannel, refunded: closeChannel }
