import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'
import { orders } from './orders.ts'
import { packages } from './packages.ts'
import { shares } from './shares.ts'
import { users } from './users.ts'

// Subscriptions and the free unlocks they gave (modules/subscriptions).

/** A user's subscription to a package: one row per (user, package), extended by each paid order. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The order that opened or last extended it. */
    lastOrderId: bigint('last_order_id', { mode: 'number' }).references(() => orders.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_user_package_key').on(t.userId, t.packageId), index('subscriptions_expires_idx').on(t.expiresAt)],
)

/** A free unlock of a share by a subscriber: once per (user, share) ever; counted per Asia/Shanghai day. */
export const subscriptionUnlocks = pgTable(
  'subscription_unlocks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => subscriptions.id),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id),
    /** The zero-amount order that lists the unlock under My orders. */
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    day: text('day').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subscription_unlocks_user_share_key').on(t.userId, t.shareId), index('subscription_unlocks_day_idx').on(t.userId, t.day)],
)
