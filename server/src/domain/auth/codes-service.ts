import { and, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { verificationCodes } from '../../db/schema.ts'
import type { CodeSender } from '../../providers/codes.ts'
import { AppError, tooMany } from '../../errors.ts'
import { CODE_DAILY_MAX, CODE_MAX_ATTEMPTS, CODE_RESEND_MS, CODE_TTL_MS, codesEqual, hashCode, newCode } from './codes.ts'

export type CodePurpose = 'register' | 'forgot' | 'bind'
export type CodeTarget = { channel: 'email' | 'sms'; target: string }

export const targetOf = (q: { email?: string; phone?: string }): CodeTarget | null =>
  q.phone ? { channel: 'sms', target: q.phone } : q.email ? { channel: 'email', target: q.email.toLowerCase() } : null

/**
 * Issues a code: 60 s between sends and 10 a day per target (all purposes together), then delivers it.
 * The per-target limits are read from the database, so they hold across API instances.
 */
export async function issueCode(
  db: Database,
  deps: { pepper: string; sender: CodeSender },
  req: CodeTarget & { purpose: CodePurpose; userId?: number; ip: string },
): Promise<{ resendAfter: number }> {
  const now = Date.now()
  const [stats] = await db
    .select({
      count: sql<number>`count(*)::int`,
      last: sql<string | null>`max(${verificationCodes.createdAt})`,
    })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, req.target), gte(verificationCodes.createdAt, new Date(now - 24 * 3600 * 1000))))
  const last = stats?.last ? new Date(stats.last).getTime() : 0
  if (last && now - last < CODE_RESEND_MS) throw tooMany('auth.codeTooSoon', Math.ceil((CODE_RESEND_MS - (now - last)) / 1000))
  if ((stats?.count ?? 0) >= CODE_DAILY_MAX) throw tooMany('auth.codeDailyLimit', 3600)

  const code = newCode()
  // A new code replaces the older unused ones for the same purpose and target.
  await db
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.target, req.target), eq(verificationCodes.purpose, req.purpose), isNull(verificationCodes.consumedAt)))
  const [row] = await db
    .insert(verificationCodes)
    .values({
      purpose: req.purpose,
      channel: req.channel,
      target: req.target,
      userId: req.userId ?? null,
      codeHash: hashCode(deps.pepper, req.purpose, req.target, code),
      expiresAt: new Date(now + CODE_TTL_MS),
      ip: req.ip,
    })
    .returning({ id: verificationCodes.id })
  try {
    await deps.sender.send({ channel: req.channel, to: req.target, code, purpose: req.purpose })
  } catch (e) {
    // Not delivered: the code must not count against the user, and cannot be used.
    await db.delete(verificationCodes).where(eq(verificationCodes.id, row!.id))
    throw new AppError(502, 'auth.codeSendFailed', { cause: e instanceof Error ? e.message : String(e) })
  }
  return { resendAfter: CODE_RESEND_MS / 1000 }
}

/**
 * Checks a code and consumes it. Wrong tries count on the latest live code; the fifth voids it.
 * Runs inside the caller's transaction so the code is consumed only if the change it guards commits.
 */
export async function consumeCode(
  db: Database | Parameters<Parameters<Database['transaction']>[0]>[0],
  pepper: string,
  req: { purpose: CodePurpose; target: string; code: string; userId?: number },
): Promise<boolean> {
  const target = req.target.includes('@') ? req.target.toLowerCase() : req.target
  const [live] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.target, target),
        eq(verificationCodes.purpose, req.purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
        // A bind code belongs to the account that asked for it: others' wrong tries cannot void it.
        req.userId === undefined ? undefined : eq(verificationCodes.userId, req.userId),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .for('update')
  if (!live) return false
  const ok = codesEqual(live.codeHash, hashCode(pepper, req.purpose, target, req.code))
  if (ok) {
    await db.update(verificationCodes).set({ consumedAt: new Date() }).where(eq(verificationCodes.id, live.id))
    return true
  }
  const attempts = live.attempts + 1
  await db
    .update(verificationCodes)
    .set({ attempts, consumedAt: attempts >= CODE_MAX_ATTEMPTS ? new Date() : null })
    .where(eq(verificationCodes.id, live.id))
  return false
}
