import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { SHARE_STATUSES, SHARE_TYPES, SUBSCRIPTION_STATUSES } from '../../../../contract/values/shares.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// Shares and their daily visits (modules/shares, modules/share).

/**
 * A paid share (SPEC §3 Share). Content and extraction code are AES-256-GCM encrypted at rest
 * (DESIGN §2). Deleting is soft: buyers keep what they paid for.
 */
export const shares = pgTable(
  'shares',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    unicode: text('unicode').notNull(),
    type: text('type', { enum: SHARE_TYPES }).notNull(),
    contentEnc: text('content_enc').notNull(),
    extractionCodeEnc: text('extraction_code_enc'),
    priceFen: integer('price_fen').notNull(),
    status: text('status', { enum: SHARE_STATUSES })
      .notNull()
      .default('under_review'),
    subscriptionStatus: text('subscription_status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('close'),
    visitCount: integer('visit_count').notNull().default(0),
    purchaseCount: integer('purchase_count').notNull().default(0),
    /** How many times the share was taken down after a report; an appeal is allowed once per take-down. */
    takedowns: integer('takedowns').notNull().default(0),
    /** Set while a dead link stops the sales (issue 25, two strikes; written for modules/linkcheck). */
    linkStoppedAt: timestamp('link_stopped_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shares_unicode_key').on(t.unicode),
    index('shares_user_idx').on(t.userId, t.createdAt),
    index('shares_status_idx').on(t.status),
    // The title and keyword filters (ILIKE '%…%'): trigrams (decision 098).
    index('shares_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
  ],
)

/** One visit per visitor per share per Asia/Shanghai day (issue: visits counted once a day). */
export const shareVisits = pgTable(
  'share_visits',
  {
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    visitorKey: text('visitor_key').notNull(),
    day: text('day').notNull(),
  },
  (t) => [uniqueIndex('share_visits_key').on(t.shareId, t.visitorKey, t.day)],
)
