import crypto from 'node:crypto'
import type { Database, Tx } from '../../db/client.ts'
import type { CodeSender } from '../../providers/codes.ts'
import { AppError, tooMany } from '../../errors.ts'
import { codeStats, deleteCode, insertCode, latestLiveCode, updateCode, voidLiveCodes } from './repository.ts'
import { CODE_DAILY_MAX, CODE_MAX_ATTEMPTS, CODE_RESEND_MS, CODE_TTL_MS, type CodePurpose, type CodeTarget, codesEqual, hashCode } from './rules.ts'

const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')

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
  const stats = await codeStats(db, req.target, new Date(now - 24 * 3600 * 1000))
  const last = stats.last?.getTime() ?? 0
  if (last && now - last < CODE_RESEND_MS) throw tooMany('auth.codeTooSoon', Math.ceil((CODE_RESEND_MS - (now - last)) / 1000))
  if (stats.count >= CODE_DAILY_MAX) throw tooMany('auth.codeDailyLimit', 3600)

  const code = newCode()
  await voidLiveCodes(db, req.target, req.purpose)
  const id = await insertCode(db, {
    purpose: req.purpose,
    channel: req.channel,
    target: req.target,
    userId: req.userId ?? null,
    codeHash: hashCode(deps.pepper, req.purpose, req.target, code),
    expiresAt: new Date(now + CODE_TTL_MS),
    ip: req.ip,
  })
  try {
    await deps.sender.send({ channel: req.channel, to: req.target, code, purpose: req.purpose })
  } catch (e) {
    // Not delivered: the code must not count against the user, and cannot be used.
    await deleteCode(db, id)
    throw new AppError(502, 'auth.codeSendFailed', { cause: e instanceof Error ? e.message : String(e) })
  }
  return { resendAfter: CODE_RESEND_MS / 1000 }
}

/**
 * Checks a code and consumes it. Wrong tries count on the latest live code; the fifth voids it.
 * Runs inside the caller's transaction so the code is consumed only if the change it guards commits.
 */
export async function consumeCode(db: Database | Tx, pepper: string, req: { purpose: CodePurpose; target: string; code: string; userId?: number }): Promise<boolean> {
  const target = req.target.includes('@') ? req.target.toLowerCase() : req.target
  const live = await latestLiveCode(db, { purpose: req.purpose, target, userId: req.userId })
  if (!live) return false
  if (codesEqual(live.codeHash, hashCode(pepper, req.purpose, target, req.code))) {
    await updateCode(db, live.id, { consumedAt: new Date() })
    return true
  }
  const attempts = live.attempts + 1
  await updateCode(db, live.id, { attempts, consumedAt: attempts >= CODE_MAX_ATTEMPTS ? new Date() : null })
  return false
}
