import type { Database, Tx } from '../../db/client.ts'
import { insertToken, revokeToken, revokeUserTokens } from './repository.ts'
import { TOKEN_TTL_MS, hashToken, newToken } from './tokens.ts'

/** Bearer sessions (DESIGN §3): what other modules may do with an account's tokens. */

/** A new token for the account, valid 30 days; only its hash is stored. */
export async function startSession(db: Database | Tx, userId: number, now = new Date()): Promise<string> {
  const { token, tokenHash } = newToken()
  await insertToken(db, { userId, tokenHash, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) })
  return token
}

/** Logout: revokes the one token sent. */
export async function endSession(db: Database | Tx, token: string) {
  await revokeToken(db, hashToken(token))
}

/** Password change or reset, ban, disabling: every token of the account stops working. */
export async function endAllSessions(db: Database | Tx, userId: number) {
  await revokeUserTokens(db, userId)
}
