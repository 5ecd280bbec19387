import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { PAYOUT_METHODS, WITHDRAWAL_STATUSES } from '../../../../contract/withdrawals.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// Sellers' withdrawals (modules/withdrawals).

/** SPEC §3 Withdrawal. The Alipay details are a snapshot taken at request time. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amountFen: integer('amount_fen').notNull(),
    feeFen: integer('fee_fen').notNull(),
    actualFen: integer('actual_fen').notNull(),
    alipayAccount: text('alipay_account').notNull(),
    alipayRealName: text('alipay_real_name').notNull(),
    status: text('status', { enum: WITHDRAWAL_STATUSES }).notNull().default('Pending'),
    /** The transfer order number the admin entered, or Alipay's order id of an API payout. */
    transactionOrder: text('transaction_order'),
    failureReason: text('failure_reason'),
    /** 'manual' (admin entered the transfer) or 'alipay' (paid out through fund.trans.uni.transfer). */
    payoutMethod: text('payout_method', { enum: PAYOUT_METHODS }),
    processedBy: integer('processed_by').references(() => users.id),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.createdAt),
    index('withdrawals_status_idx').on(t.status, t.createdAt),
    // Statistics and the admin list by application day, whatever the status.
    index('withdrawals_created_idx').on(t.createdAt),
    // The admin keyword filter over the Alipay details (ILIKE '%…%'): trigrams (decision 098).
    index('withdrawals_alipay_account_trgm_idx').using('gin', t.alipayAccount.op('gin_trgm_ops')),
    index('withdrawals_alipay_real_name_trgm_idx').using('gin', t.alipayRealName.op('gin_trgm_ops')),
  ],
)
