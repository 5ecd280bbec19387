import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { CODE_CHANNELS, CODE_PURPOSES } from '../../../../contract/auth.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// Sessions and verification codes (modules/credentials).

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

/**
 * One row per code sent. Only an HMAC of the code is kept; `attempts` counts wrong tries (5 void it),
 * `consumed_at` makes it single-use. `user_id` binds bind-email/phone codes to the requesting account.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    purpose: text('purpose', { enum: CODE_PURPOSES }).notNull(),
    channel: text('channel', { enum: CODE_CHANNELS }).notNull(),
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
  channel: text('channel', { enum: CODE_CHANNELS }).notNull(),
  to: text('to').notNull(),
  code: text('code').notNull(),
  purpose: text('purpose').notNull(),
  createdAt: createdAt(),
})
