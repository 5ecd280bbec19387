import { bigserial, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { OAUTH_PROVIDERS, OAUTH_PURPOSES } from '../../../../contract/oauth.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// QQ / WeChat identities and login attempts (modules/oauth).

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
    purpose: text('purpose', { enum: OAUTH_PURPOSES }).notNull(),
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
