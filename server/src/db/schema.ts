import { sql } from 'drizzle-orm'
import { bigserial, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

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
