import { bigint, bigserial, index, integer, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'
import { channels } from './channels.ts'
import { orders } from './orders.ts'
import { users } from './users.ts'

// The channels a seller opened, one row per paid order (modules/channels).

/** A channel a seller opened: one row per paid order; the lowest fee rate of the open ones applies. */
export const sellerChannels = pgTable(
  'seller_channels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    /** The channel's rate when it was opened. */
    feeRateBp: integer('fee_rate_bp').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('seller_channels_order_key').on(t.orderId), index('seller_channels_seller_idx').on(t.sellerId, t.endsAt)],
)
