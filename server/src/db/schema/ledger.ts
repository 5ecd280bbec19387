import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'
import { orders } from './orders.ts'
import { users } from './users.ts'
import { withdrawals } from './withdrawals.ts'

// The money ledger and what it sums to (modules/ledger is the only writer).

/** What moves a seller's balance: the ledger's own words, never in an API answer (so not in contract/). */
const LEDGER_KINDS = ['sale', 'refund', 'withdrawal', 'withdrawal_reversal'] as const

/**
 * Append-only seller ledger (DESIGN §2): balances are sums. By unique key a replayed event cannot post
 * twice: one `sale` and one `refund` per order, one `withdrawal` and one `withdrawal_reversal` per
 * withdrawal. `available_at` is when the entry counts as withdrawable: a sale's settle time, a refund of
 * a still unsettled sale that same time (they cancel inside "unsettled"), every other debit or credit
 * at once.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    amountFen: integer('amount_fen').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }).references(() => withdrawals.id),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_order_kind_key').on(t.orderId, t.kind),
    uniqueIndex('ledger_entries_withdrawal_kind_key').on(t.withdrawalId, t.kind),
    index('ledger_entries_seller_idx').on(t.sellerId, t.createdAt),
    index('ledger_entries_available_idx').on(t.sellerId, t.availableAt),
  ],
)

/**
 * Pre-aggregated ledger (DESIGN §2 allows a cached balance updated in the same transaction as its
 * ledger row): the running balance of each seller, and their net income and sales per Asia/Shanghai day.
 * Only the ledger service writes them, in the transaction of the entry they sum.
 */
export const sellerBalances = pgTable('seller_balances', {
  sellerId: integer('seller_id')
    .primaryKey()
    .references(() => users.id),
  /** Sum of every ledger entry. */
  balanceFen: bigint('balance_fen', { mode: 'number' }).notNull().default(0),
  /** Sum of sale and refund entries: the total income. */
  incomeFen: bigint('income_fen', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const sellerDailyIncome = pgTable(
  'seller_daily_income',
  {
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    /** yyyy-MM-dd, Asia/Shanghai. */
    day: text('day').notNull(),
    incomeFen: bigint('income_fen', { mode: 'number' }).notNull().default(0),
    /** Sales posted that day (a refund does not uncount its sale). */
    orders: integer('orders').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.day] })],
)
