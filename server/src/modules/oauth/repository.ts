import { and, eq, gt, isNull, or } from 'drizzle-orm'
import type { OAuthProvider } from '#contract/oauth.ts'
import type { Database, Tx } from '../../db/client.ts'
import { oauthAttempts, oauthIdentities, users } from '../../db/schema/index.ts'

type Db = Database | Tx
export type AttemptRow = typeof oauthAttempts.$inferSelect
export type IdentityRow = typeof oauthIdentities.$inferSelect

export async function insertAttempt(db: Db, row: typeof oauthAttempts.$inferInsert) {
  await db.insert(oauthAttempts).values(row)
}

/** Spends a state: the one row it names, unspent and unexpired, is marked used — at most once. */
export async function spendState(db: Db, q: { stateHash: string; provider: OAuthProvider; now: Date }): Promise<AttemptRow | null> {
  const [row] = await db
    .update(oauthAttempts)
    .set({ stateUsedAt: q.now })
    .where(and(eq(oauthAttempts.stateHash, q.stateHash), eq(oauthAttempts.provider, q.provider), isNull(oauthAttempts.stateUsedAt), gt(oauthAttempts.expiresAt, q.now)))
    .returning()
  return row ?? null
}

export async function setTicket(db: Db, id: number, t: { ticketHash: string; openid: string; unionid: string | null; nickname: string; expiresAt: Date }) {
  await db.update(oauthAttempts).set(t).where(eq(oauthAttempts.id, id))
}

/** Spends a ticket (same rule as a state). */
export async function spendTicket(db: Db, q: { ticketHash: string; now: Date }): Promise<AttemptRow | null> {
  const [row] = await db
    .update(oauthAttempts)
    .set({ ticketUsedAt: q.now })
    .where(and(eq(oauthAttempts.ticketHash, q.ticketHash), isNull(oauthAttempts.ticketUsedAt), gt(oauthAttempts.expiresAt, q.now)))
    .returning()
  return row ?? null
}

/** The bound identity a provider's answer names: by openid, or by unionid when the provider gave one. */
export async function findIdentity(db: Db, provider: OAuthProvider, id: { openid: string; unionid: string | null }) {
  const [row] = await db
    .select({ identity: oauthIdentities, user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(and(eq(oauthIdentities.provider, provider), or(eq(oauthIdentities.openid, id.openid), id.unionid ? eq(oauthIdentities.unionid, id.unionid) : undefined)))
    .limit(1)
  return row ?? null
}

export async function insertIdentity(db: Db, row: { provider: OAuthProvider; openid: string; unionid: string | null; nickname: string; userId: number }) {
  await db.insert(oauthIdentities).values(row)
}

export async function listIdentities(db: Db, userId: number) {
  return db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, userId)).orderBy(oauthIdentities.provider)
}

/** The account row, locked: unbinds of one account run one after another. */
export async function lockAccount(db: Db, userId: number) {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).for('update')
  return row ?? null
}

export async function deleteIdentity(db: Db, userId: number, provider: OAuthProvider) {
  const rows = await db.delete(oauthIdentities).where(and(eq(oauthIdentities.userId, userId), eq(oauthIdentities.provider, provider))).returning({ id: oauthIdentities.id })
  return rows.length > 0
}
