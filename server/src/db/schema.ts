import { sql } from 'drizzle-orm'
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { ORDER_PAYMENT_METHODS, PAYMENT_STATUSES, PRODUCT_TYPES, REVEAL_KINDS } from '../../../contract/orders.ts'
import { CHANNEL_STATUSES } from '../../../contract/channels.ts'
import { PACKAGE_STATUSES } from '../../../contract/packages.ts'
import { WITHDRAWAL_STATUSES } from '../../../contract/withdrawals.ts'
import { LOGIN_METHODS, OAUTH_PROVIDERS } from '../../../contract/oauth.ts'
import { CHAT_STATUSES, LABEL_COLORS, SENDERS } from '../../../contract/messages.ts'

/** What moves a seller's balance (server/src/modules/ledger is the only writer). */
const LEDGER_KINDS = ['sale', 'refund', 'withdrawal', 'withdrawal_reversal'] as const

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    // Null for an account created by QQ / WeChat login until a password is set (decision 094).
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['admin', 'user'] }).notNull().default('user'),
    status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
    profile: text('profile').notNull().default(''),
    isBanned: smallint('is_banned').notNull().default(0),
    lastLoginIp: text('last_login_ip'),
    lastLoginTime: timestamp('last_login_time', { withTimezone: true }),
    termsAgreedAt: timestamp('terms_agreed_at', { withTimezone: true }),
    alipayRealName: text('alipay_real_name'),
    alipayAccount: text('alipay_account'),
    createdAt: createdAt(),
  },
  (t) => [
    // Names, emails and phones are unique case-insensitively.
    uniqueIndex('users_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_phone_key').on(t.phone),
    // The admin keyword filters (ILIKE '%…%', case-insensitive): trigram indexes (pg_trgm, decision 098).
    index('users_user_name_trgm_idx').using('gin', t.userName.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_phone_trgm_idx').using('gin', t.phone.op('gin_trgm_ops')),
    // New users per day (statistics, the instrument cluster) by a range of this index (decision 101).
    index('users_created_idx').on(t.createdAt),
  ],
)

/** Opaque bearer tokens, stored as SHA-256 hashes (DESIGN §3 Accounts). */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_tokens_token_hash_key').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId)],
)

export const loginRecords = pgTable(
  'login_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    userName: text('user_name').notNull(),
    browser: text('browser').notNull(),
    device: text('device').notNull(),
    ip: text('ip').notNull(),
    /** How the account logged in (issue 12): its password, or a bound QQ / WeChat identity. */
    method: text('method', { enum: LOGIN_METHODS }).notNull().default('password'),
    createdAt: createdAt(),
  },
  (t) => [
    // The admin filters (issue 9): by user, by IP, by date — each newest first; the keyword by trigrams (decision 098).
    index('login_records_user_idx').on(t.userId, t.createdAt),
    index('login_records_ip_idx').on(t.ip, t.createdAt),
    index('login_records_created_idx').on(t.createdAt),
    index('login_records_user_name_trgm_idx').using('gin', t.userName.op('gin_trgm_ops')),
    index('login_records_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('login_records_ip_trgm_idx').using('gin', t.ip.op('gin_trgm_ops')),
  ],
)

/**
 * One row per code sent. Only an HMAC of the code is kept; `attempts` counts wrong tries (5 void it),
 * `consumed_at` makes it single-use. `user_id` binds bind-email/phone codes to the requesting account.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    purpose: text('purpose', { enum: ['register', 'forgot', 'bind'] }).notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    target: text('target').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_target_idx').on(t.target, t.createdAt)],
)

/** Codes "delivered" while no real mail/SMS provider is configured (DESIGN: dev outbox). */
export const outboxMessages = pgTable('outbox_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
  to: text('to').notNull(),
  code: text('code').notNull(),
  purpose: text('purpose').notNull(),
  createdAt: createdAt(),
})

export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

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
    type: text('type', { enum: ['text', 'url', 'netdisk'] }).notNull(),
    contentEnc: text('content_enc').notNull(),
    extractionCodeEnc: text('extraction_code_enc'),
    priceFen: integer('price_fen').notNull(),
    status: text('status', { enum: ['under_review', 'approved', 'reported_invalid', 'violation'] })
      .notNull()
      .default('under_review'),
    subscriptionStatus: text('subscription_status', { enum: ['open', 'close'] }).notNull().default('close'),
    visitCount: integer('visit_count').notNull().default(0),
    purchaseCount: integer('purchase_count').notNull().default(0),
    /** How many times the share was taken down after a report; an appeal is allowed once per take-down. */
    takedowns: integer('takedowns').notNull().default(0),
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
    payoutMethod: text('payout_method', { enum: ['manual', 'alipay'] }),
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

/** A channel a seller opened: one row per paid order; the lowest fee rate of the open ones applies. */
export const sellerChannels = pgTable(
  'seller_channels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    /** The channel's rate when it was opened. */
    feeRateBp: integer('fee_rate_bp').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('seller_channels_order_key').on(t.orderId), index('seller_channels_seller_idx').on(t.sellerId, t.endsAt)],
)

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

/** A user's subscription to a package: one row per (user, package), extended by each paid order. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The order that opened or last extended it. */
    lastOrderId: bigint('last_order_id', { mode: 'number' }).references(() => orders.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_user_package_key').on(t.userId, t.packageId), index('subscriptions_expires_idx').on(t.expiresAt)],
)

/** A free unlock of a share by a subscriber: once per (user, share) ever; counted per Asia/Shanghai day. */
export const subscriptionUnlocks = pgTable(
  'subscription_unlocks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => subscriptions.id),
    shareId: integer('share_id')
      .notNull()
      .references(() => shares.id),
    /** The zero-amount order that lists the unlock under My orders. */
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    day: text('day').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subscription_unlocks_user_share_key').on(t.userId, t.shareId), index('subscription_unlocks_day_idx').on(t.userId, t.day)],
)

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
    status: text('status', { enum: ['processing', 'handled'] })
      .notNull()
      .default('processing'),
    reporterIp: text('reporter_ip').notNull(),
    reporterId: integer('reporter_id').references(() => users.id),
    /** The share's status when reported (SPEC §3 share_status). */
    shareStatus: text('share_status').notNull(),
    action: text('action', { enum: ['recover', 'take_down', 'ban'] }),
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
    status: text('status', { enum: ['pending', 'approved', 'banned'] })
      .notNull()
      .default('pending'),
    handledBy: integer('handled_by').references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('appeals_share_takedown_key').on(t.shareId, t.takedownNo), index('appeals_status_idx').on(t.status, t.createdAt)],
)

/**
 * The append-only audit trail (issue 9): every state change of a share, a user, an order's refund and a
 * withdrawal — who (null: the system), when, from, to, why. Rows are only ever inserted.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subjectType: text('subject_type', { enum: ['share', 'user', 'order', 'withdrawal'] }).notNull(),
    subjectId: integer('subject_id').notNull(),
    action: text('action').notNull(),
    actorId: integer('actor_id').references(() => users.id),
    fromState: text('from_state'),
    toState: text('to_state'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.id)],
)

/**
 * QQ / WeChat identities bound to accounts (issue 12). An identity is the provider's openid for our app
 * (WeChat: the unionid when the platform gives one, research/INTEGRATIONS.md §3.2); it binds to one
 * account only, and an account holds at most one identity per provider.
 */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    id: serial('id').primaryKey(),
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    openid: text('openid').notNull(),
    unionid: text('unionid'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickname: text('nickname').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oauth_identities_openid_key').on(t.provider, t.openid),
    uniqueIndex('oauth_identities_unionid_key').on(t.provider, t.unionid),
    uniqueIndex('oauth_identities_user_key').on(t.userId, t.provider),
  ],
)

/**
 * One QQ / WeChat round trip (issue 12): the `state` sent to the provider (its hash; single use), what
 * it was for (log in, or bind to `user_id`), and — when the identity came back unknown — the identity
 * and the hash of the one-time ticket with which the browser then binds it or creates an account.
 */
export const oauthAttempts = pgTable(
  'oauth_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stateHash: text('state_hash').notNull(),
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    purpose: text('purpose', { enum: ['login', 'bind'] }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    stateUsedAt: timestamp('state_used_at', { withTimezone: true }),
    ticketHash: text('ticket_hash'),
    openid: text('openid'),
    unionid: text('unionid'),
    nickname: text('nickname'),
    ticketUsedAt: timestamp('ticket_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_attempts_state_key').on(t.stateHash), uniqueIndex('oauth_attempts_ticket_key').on(t.ticketHash)],
)

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
    state: text('state', { enum: ['running', 'interrupted', 'done'] }).notNull(),
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

/** Issue 10: one after-sales chat per order, opened by its buyer (an account, or a visitor by order number). */
export const chats = pgTable(
  'chats',
  {
    id: serial('id').primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    /** The buyer's account when the order has one; null for a visitor's order. */
    buyerId: integer('buyer_id').references(() => users.id),
    status: text('status', { enum: CHAT_STATUSES }).notNull().default('pending'),
    /** When an admin first took it up (→ processing) or closed it. */
    processedAt: timestamp('processed_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chats_order_key').on(t.orderId),
    index('chats_buyer_idx').on(t.buyerId, t.lastMessageAt),
    index('chats_status_idx').on(t.status, t.lastMessageAt),
  ],
)

/** The lines of a chat; `read_at` is when the other side read it. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id),
    sender: text('sender', { enum: SENDERS }).notNull(),
    /** The admin who answered, or the buyer's account (null: a visitor). */
    senderId: integer('sender_id').references(() => users.id),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_chat_idx').on(t.chatId, t.id), index('chat_messages_unread_idx').on(t.sender, t.chatId).where(sql`read_at IS NULL`)],
)

/** Private messages between one user and the platform (issue 10). */
export const privateMessages = pgTable(
  'private_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    sender: text('sender', { enum: SENDERS }).notNull(),
    /** The admin who wrote (sender admin), or the user. */
    senderId: integer('sender_id').references(() => users.id),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('private_messages_user_idx').on(t.userId, t.id), index('private_messages_unread_idx').on(t.sender, t.userId).where(sql`read_at IS NULL`)],
)

/** System notifications (SPEC §3), shown to every user by priority. */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    priority: integer('priority').notNull().default(0),
    content: text('content').notNull(),
    labelColor: text('label_color', { enum: LABEL_COLORS }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_priority_idx').on(t.priority, t.id)],
)

/** Up to when a user has read the notifications (those created later are unread). */
export const notificationReads = pgTable('notification_reads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  readAt: timestamp('read_at', { withTimezone: true }).notNull(),
})
