import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { APPEAL_STATUSES, REPORT_ACTIONS, REPORT_STATUSES } from '../../../../contract/moderation.ts'
import { createdAt } from './columns.ts'
import { shares } from './shares.ts'
import { users } from './users.ts'

// Reports of shares and sellers' appeals (modules/moderation).

/**
 * A visitor's report of a share (SPEC §3 Report; DESIGN §3 Reports and appeals). `processing` until an
 * admin handles it with one of the SPEC §4 actions; handling one report handles the share's other open
 * reports with the same action.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id),
    reason: text('reason').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: REPORT_STATUSES })
      .notNull()
      .default('processing'),
    reporterIp: text('reporter_ip').notNull(),
    reporterId: integer('reporter_id').references(() => users.id),
    /** The share's status when reported (SPEC §3 share_status). */
    shareStatus: text('share_status').notNull(),
    action: text('action', { enum: REPORT_ACTIONS }),
    handledBy: integer('handled_by').references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('reports_status_idx').on(t.status, t.createdAt), index('reports_share_idx').on(t.shareId, t.status)],
)

/**
 * A seller's appeal against a take-down. `takedownNo` is the share's take-down count when appealed, so
 * the unique key allows one appeal per take-down.
 */
export const appeals = pgTable(
  'appeals',
  {
    id: serial('id').primaryKey(),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    takedownNo: integer('takedown_no').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: APPEAL_STATUSES })
      .notNull()
      .default('pending'),
    handledBy: integer('handled_by').references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('appeals_share_takedown_key').on(t.shareId, t.takedownNo), index('appeals_status_idx').on(t.status, t.createdAt)],
)
