import { sql } from 'drizzle-orm'
import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { DEAD_LINK_REFUND_STATES, LINK_RESULTS, LINK_STATES, LINK_TRIGGERS } from '../../../../contract/values/links.ts'
import { orders } from './orders.ts'
import { shares } from './shares.ts'

// Link checks of url and netdisk shares, and dead-link refund requests (modules/linkcheck, issue 25).

/** One row per checked share: where its link stands, its strikes, and when the schedule checks it next. */
export const linkStates = pgTable(
  'link_states',
  {
    shareId: integer('share_id')
      .primaryKey()
      .references(() => shares.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    state: text('state', { enum: LINK_STATES }).notNull().default('unchecked'),
    reason: text('reason'),
    /** Dead results in a row (an unknown one neither counts nor resets). */
    deadStreak: integer('dead_streak').notNull().default(0),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    /** Set when the second strike stopped the sales; also when the seller was told. Cleared by a passing check. */
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    checks: integer('checks').notNull().default(0),
    deadChecks: integer('dead_checks').notNull().default(0),
  },
  (t) => [index('link_states_due_idx').on(t.nextCheckAt), index('link_states_state_idx').on(t.state, t.shareId)],
)

/** Every check, newest last: the admin's history of a share. */
export const linkChecks = pgTable(
  'link_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    result: text('result', { enum: LINK_RESULTS }).notNull(),
    reason: text('reason'),
    httpStatus: integer('http_status'),
    finalUrl: text('final_url'),
    trigger: text('trigger', { enum: LINK_TRIGGERS }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('link_checks_share_idx').on(t.shareId, t.id)],
)

/** A buyer's refund request for a dead link: one per order (the unique key that makes it happen once). */
export const deadLinkRefunds = pgTable(
  'dead_link_refunds',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => orders.id),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id),
    state: text('state', { enum: DEAD_LINK_REFUND_STATES }).notNull().default('requested'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('dead_link_refunds_open_idx').on(t.shareId).where(sql`state = 'requested'`)],
)
