import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { ORDER_PAYMENT_METHODS, PAYMENT_STATUSES, PRODUCT_TYPES, REVEAL_KINDS } from '../../../../contract/orders.ts'
import { createdAt } from './columns.ts'
import { channels } from './channels.ts'
import { packages } from './packages.ts'
import { shares } from './shares.ts'
import { users } from './users.ts'

// Orders, the showings of what they bought, and the gateway notifications handled (modules/orders, modules/payments).

/**
 * SPEC §3 Order. `order_no` is ours (out_trade_no at the gateway), unguessable because holding it opens
 * the content. Amounts in fen; fee and seller income fixed when the payment is confirmed.
 */
export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    /** What was bought (issue 7: orders of a product); its id is in share_id, channel_id or package_id. */
    productType: text('product_type', { enum: PRODUCT_TYPES }).notNull().default('share'),
    shareId: integer('share_id').references(() => shares.id),
    channelId: integer('channel_id').references(() => channels.id),
    packageId: integer('package_id').references(() => packages.id),
    sellerId: integer('seller_id').references(() => users.id),
    buyerId: integer('buyer_id').references(() => users.id),
    /**
     * SHA-256 of the buyer key `POST /api/orders/create` gave the client that created the order
     * (decision 102): what that browser proves itself with. Null for orders made before it existed.
     */
    buyerKeyHash: text('buyer_key_hash'),
    productName: text('product_name').notNull(),
    amountFen: integer('amount_fen').notNull(),
    paymentMethod: text('payment_method', { enum: ORDER_PAYMENT_METHODS }).notNull(),
    /** The gateway, or `subscription` for a subscriber's free unlock (no gateway, nothing paid). */
    provider: text('provider', { enum: ['alipay', 'wechat', 'sandbox', 'subscription'] }).notNull(),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES })
      .notNull()
      .default('Pending'),
    providerTradeNo: text('provider_trade_no'),
    /** Where the buyer pays: the gateway page (Alipay, sandbox) or the WeChat Native code_url. */
    checkoutUrl: text('checkout_url'),
    feeFen: integer('fee_fen'),
    /** The fee rate of the sale in basis points, fixed when it is paid (issue 7). */
    feeRateBp: integer('fee_rate_bp'),
    /** When the seller income of the sale becomes withdrawable: paid_at + the settlement delay. */
    settleAt: timestamp('settle_at', { withTimezone: true }),
    sellerIncomeFen: integer('seller_income_fen'),
    buyerIp: text('buyer_ip'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the gateway confirmed that the refund reached the payer (decision 057). */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The gateway's final answer when a refund did not go through (WeChat CLOSED / ABNORMAL): an admin handles it. */
    refundFailure: text('refund_failure'),
    lastQueriedAt: timestamp('last_queried_at', { withTimezone: true }),
    /**
     * Evidence for after-sales disputes: when the content was first shown to the buyer — its account or
     * the browser that paid (decision 102; `order_reveals` keeps every showing, the buyer's or not).
     */
    firstRevealedAt: timestamp('first_revealed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    uniqueIndex('orders_provider_trade_key').on(t.provider, t.providerTradeNo),
    index('orders_share_idx').on(t.shareId, t.createdAt),
    index('orders_seller_idx').on(t.sellerId, t.createdAt),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt),
    index('orders_pending_idx').on(t.paymentStatus, t.expiresAt),
    index('orders_created_idx').on(t.createdAt),
    // The admin keyword filter over the product name (ILIKE '%…%'): trigrams (decision 098).
    index('orders_product_name_trgm_idx').using('gin', t.productName.op('gin_trgm_ops')),
    // orders_status_created_idx (payment_status, created_at) INCLUDE (share_id, buyer_id, seller_id) —
    // the admin order list by status, newest first, and its count index-only — is in migration 0008's
    // hand-written part: drizzle cannot write INCLUDE (decision 074).
  ],
)

/**
 * Every time the content of a paid share order was shown (decision 102): to whom (`how`, the account)
 * and from where (the console's signed visitor id, the address), and whether it counts as shown to the
 * buyer. One row per order, way, account, visitor and address, with the first and last time and how
 * many times: a buyer reloading its page does not grow the table.
 */
export const orderReveals = pgTable(
  'order_reveals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    how: text('how', { enum: REVEAL_KINDS }).notNull(),
    /** The buyer's account or browser: the showing counts (it set `orders.first_revealed_at` if first). */
    counts: boolean('counts').notNull(),
    userId: integer('user_id').references(() => users.id),
    visitorId: text('visitor_id'),
    ip: text('ip').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    times: integer('times').notNull().default(1),
  },
  (t) => [unique('order_reveals_who_key').on(t.orderId, t.how, t.userId, t.visitorId, t.ip).nullsNotDistinct(), index('order_reveals_order_idx').on(t.orderId, t.lastAt)],
)

/** Every gateway notification handled, once (research/INTEGRATIONS.md §5.2). */
export const inboundEvents = pgTable(
  'inbound_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventKey: text('event_key').notNull(),
    orderNo: text('order_no').notNull(),
    state: text('state').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('inbound_events_key').on(t.provider, t.eventKey)],
)
