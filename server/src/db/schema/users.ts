import { sql } from 'drizzle-orm'
import { bigserial, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { LOGIN_METHODS } from '../../../../contract/oauth.ts'
import { ROLES, USER_STATUSES } from '../../../../contract/users.ts'
import { createdAt } from './columns.ts'

// Accounts and their sign-ins (modules/users; sign-ins written by modules/auth through users).

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    // Null for an account created by QQ / WeChat login until a password is set (decision 094).
    passwordHash: text('password_hash'),
    role: text('role', { enum: ROLES }).notNull().default('user'),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
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
