import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { CHANNEL_STATUSES } from '../../../../contract/channels.ts'
import { createdAt } from './columns.ts'

// The fee plans sellers can buy (modules/channels).

/** SPEC §3 Channel: a seller fee plan opened by paying its price; applies for service_duration days. */
export const channels = pgTable('channels', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  priceFen: integer('price_fen').notNull(),
  feeRateBp: integer('fee_rate_bp').notNull(),
  minimumIncomeFen: integer('minimum_income_fen').notNull().default(0),
  serviceDurationDays: integer('service_duration_days').notNull(),
  status: text('status', { enum: CHANNEL_STATUSES }).notNull().default('enable'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
