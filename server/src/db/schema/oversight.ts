import { bigint, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { FRAUD_ACTION_STATES } from '../../../../contract/oversight.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// Fraud actions on a seller (modules/oversight).

/**
 * "Ban seller and refund buyers" (issue 9, decision 067): one row per seller, claimed by a run with a
 * lease (two admins at once: one runs, the other is told it is running; a run that crashed is resumed
 * once its lease is over). `since` fixes the refund window at the first run, so a resumed run refunds
 * the same orders.
 */
export const fraudActions = pgTable(
  'fraud_actions',
  {
    id: serial('id').primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    actorId: integer('actor_id').references(() => users.id),
    state: text('state', { enum: FRAUD_ACTION_STATES }).notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    refundedCount: integer('refunded_count').notNull().default(0),
    refundedFen: bigint('refunded_fen', { mode: 'number' }).notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('fraud_actions_seller_key').on(t.sellerId)],
)
