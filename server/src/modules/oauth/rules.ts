import crypto from 'node:crypto'

/** A state or ticket: 256 random bits, sent to the browser; only its SHA-256 is stored. */
export function newSecret(): { value: string; hash: string } {
  const value = crypto.randomBytes(32).toString('base64url')
  return { value, hash: hashSecret(value) }
}
export const hashSecret = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

/** A round trip must come back within this (the providers' codes live 10 minutes). */
export const STATE_TTL_MS = 10 * 60_000
/** An unknown identity's ticket: time to choose bind-to-existing or create, and fill the form. */
export const TICKET_TTL_MS = 15 * 60_000

/**
 * Decision 094: an account keeps at least one way to log in. Unbinding is refused when the account has
 * no password and the identity is its last one.
 */
export function mayUnbind(account: { hasPassword: boolean; boundCount: number }): boolean {
  return account.hasPassword || account.boundCount > 1
}

/**
 * A bind round trip belongs to the session that started it: the state names the account, and the
 * callback must come with that account's token (a state lured into another browser binds nothing).
 */
export function bindCallbackAllowed(attempt: { purpose: 'login' | 'bind'; userId: number | null }, callerId: number | undefined): boolean {
  return attempt.purpose === 'login' || (attempt.userId !== null && attempt.userId === callerId)
}
