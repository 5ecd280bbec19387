import { sql } from 'drizzle-orm'
import { bigint, bigserial, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '../../../contract/orders.ts'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
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
    createdAt: createdAt(),
  },
  (t) => [index('login_records_user_idx').on(t.userId, t.createdAt)],
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
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shares_unicode_key').on(t.unicode), index('shares_user_idx').on(t.userId, t.createdAt), index('shares_status_idx').on(t.status)],
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
    shareId: integer('share_id').references(() => shares.id),
    sellerId: integer('seller_id').references(() => users.id),
    buyerId: integer('buyer_id').references(() => users.id),
    productName: text('product_name').notNull(),
    amountFen: integer('amount_fen').notNull(),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull(),
    provider: text('provider', { enum: ['alipay', 'wechat', 'sandbox'] }).notNull(),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES })
      .notNull()
      .default('Pending'),
    providerTradeNo: text('provider_trade_no'),
    /** Where the buyer pays: the gateway page (Alipay, sandbox) or the WeChat Native code_url. */
    checkoutUrl: text('checkout_url'),
    feeFen: integer('fee_fen'),
    sellerIncomeFen: integer('seller_income_fen'),
    buyerIp: text('buyer_ip'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    lastQueriedAt: timestamp('last_queried_at', { withTimezone: true }),
    /** Evidence for after-sales disputes: when the content was first shown to the buyer. */
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
  ],
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

/**
 * Append-only seller ledger (DESIGN §2): balances are sums. One `sale` per order and one `refund` per
 * order by unique key, so a replayed event cannot post twice.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['sale', 'refund'] }).notNull(),
    amountFen: integer('amount_fen').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ledger_entries_order_kind_key').on(t.orderId, t.kind), index('ledger_entries_seller_idx').on(t.sellerId, t.createdAt)],
)
