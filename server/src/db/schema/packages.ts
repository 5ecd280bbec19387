import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { PACKAGE_STATUSES } from '../../../../contract/packages.ts'
import { createdAt } from './columns.ts'

// The subscription packages on sale (modules/packages).

/** SPEC §3 Package: download_limit free unlocks per Asia/Shanghai day for duration_days. */
export const packages = pgTable('packages', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  downloadLimit: integer('download_limit').notNull(),
  priceFen: integer('price_fen').notNull(),
  durationDays: integer('duration_days').notNull(),
  status: text('status', { enum: PACKAGE_STATUSES }).notNull().default('on_sale'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
