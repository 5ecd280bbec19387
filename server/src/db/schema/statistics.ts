import { bigint, bigserial, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'

// The statistics kept per day (modules/statistics).

/**
 * Orders summed per Asia/Shanghai day of their creation, per seller and per buyer, by their CURRENT
 * payment status (decision 073): what the admin statistics and the instrument cluster read instead of
 * the orders. Kept by a trigger on `orders` in the transaction of every insert and status change,
 * whoever writes (migration 0008, hand-written part). `user_id` 0 on the seller side is the platform's
 * own products (channels, packages); orders without a buyer account have no buyer row.
 */
export const orderDailyStats = pgTable(
  'order_daily_stats',
  {
    side: text('side', { enum: ['seller', 'buyer', 'seller_month', 'buyer_month', 'platform'] }).notNull(),
    /**
     * yyyy-MM-dd, Asia/Shanghai, of the order's created_at; yyyy-MM on the `*_month` sides (a user's
     * month, so long ranges read whole months). `platform` rows are all orders of a day, `user_id` being
     * a shard (order id modulo 8) so concurrent orders do not queue on one row (decision 074).
     */
    day: text('day').notNull(),
    userId: integer('user_id').notNull(),
    orders: integer('orders').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    pending: integer('pending').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    refunded: integer('refunded').notNull().default(0),
    /** Completed orders of amount 0 (a subscriber's free unlock). */
    free: integer('free').notNull().default(0),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
    completedFen: bigint('completed_fen', { mode: 'number' }).notNull().default(0),
    pendingFen: bigint('pending_fen', { mode: 'number' }).notNull().default(0),
    refundFen: bigint('refund_fen', { mode: 'number' }).notNull().default(0),
    /** The fee and seller income of the Completed orders (fixed at payment). */
    feeFen: bigint('fee_fen', { mode: 'number' }).notNull().default(0),
    incomeFen: bigint('income_fen', { mode: 'number' }).notNull().default(0),
    /**
     * How many order changes this row has taken: 1 when made, plus 1 at each change, never less — so
     * the sum over the `platform` rows of some days differs whenever any order of those days changed,
     * even when their figures sum to the same (one Pending order completes as another fails). What the
     * statistics cache checks its past days against (decision 101).
     */
    changes: bigint('changes', { mode: 'number' }).notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.side, t.day, t.userId] })],
)

/**
 * Each change the trigger made to `order_daily_stats`, as one row: the order's day, its seller (0: the
 * platform's own products) and buyer, and what it added to their figures (negative when taken away).
 * One row per `changes` added to a platform row, so the statistics cache brings past days' per-user
 * sums up to date by adding the rows after the last it saw, and knows by the count that it missed none
 * (decision 101). Rows older than a day are pruned by the minute sweep.
 */
export const orderStatsLog = pgTable('order_stats_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  day: text('day').notNull(),
  sellerId: integer('seller_id').notNull(),
  buyerId: integer('buyer_id'),
  orders: integer('orders').notNull(),
  completed: integer('completed').notNull(),
  pending: integer('pending').notNull(),
  failed: integer('failed').notNull(),
  refunded: integer('refunded').notNull(),
  free: integer('free').notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  completedFen: bigint('completed_fen', { mode: 'number' }).notNull(),
  pendingFen: bigint('pending_fen', { mode: 'number' }).notNull(),
  refundFen: bigint('refund_fen', { mode: 'number' }).notNull(),
  feeFen: bigint('fee_fen', { mode: 'number' }).notNull(),
  incomeFen: bigint('income_fen', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
})
