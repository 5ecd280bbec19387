import { and, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm'
import type { Database, Tx } from '../../db/client.ts'
import { authTokens, verificationCodes } from '../../db/schema/index.ts'
import type { CodePurpose } from './rules.ts'

type Db = Database | Tx

// ---- verification codes ----

/** Codes sent to a target since `since` (all purposes together), and when the latest went out. */
export async function codeStats(db: Db, target: string, since: Date) {
  const [stats] = await db
    .select({
      count: sql<number>`count(*)::int`,
      last: sql<string | null>`max(${verificationCodes.createdAt})`,
    })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, target), gte(verificationCodes.createdAt, since)))
  return { count: stats?.count ?? 0, last: stats?.last ? new Date(stats.last) : null }
}

/** Voids the unused codes of one purpose and target (a new one replaces them). */
export async function voidLiveCodes(db: Db, target: string, purpose: CodePurpose) {
  await db
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)))
}

export async function insertCode(db: Db, row: typeof verificationCodes.$inferInsert) {
  const [inserted] = await db.insert(verificationCodes).values(row).returning({ id: verificationCodes.id })
  return inserted!.id
}

export async function deleteCode(db: Db, id: number) {
  await db.delete(verificationCodes).where(eq(verificationCodes.id, id))
}

/** The latest live code of a purpose and target, locked for the check that follows. */
export async function latestLiveCode(db: Db, q: { purpose: CodePurpose; target: string; userId?: number }) {
  const [live] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.target, q.target),
        eq(verificationCodes.purpose, q.purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
        // A bind code belongs to the account that asked for it: others' wrong tries cannot void it.
        q.userId === undefined ? undefined : eq(verificationCodes.userId, q.userId),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .for('update')
  return live ?? null
}

export async function updateCode(db: Db, id: number, set: { attempts?: number; consumedAt?: Date | null }) {
  await db.update(verificationCodes).set(set).where(eq(verificationCodes.id, id))
}

// ---- bearer tokens ----

export async function insertToken(db: Db, row: { userId: number; tokenHash: string; expiresAt: Date }) {
  await db.insert(authTokens).values(row)
}

export async function revokeToken(db: Db, tokenHash: string) {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, tokenHash))
}

export async function revokeUserTokens(db: Db, userId: number) {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.userId, userId))
}
