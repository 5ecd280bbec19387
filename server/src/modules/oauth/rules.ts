import crypto from 'node:crypto'

/** A binding or ticket: 256 random bits, sent to the browser; only a hash is stored. */
export function newSecret(): { value: string; hash: string } {
  const value = crypto.randomBytes(32).toString('base64url')
  return { value, hash: hashSecret(value) }
}
export const hashSecret = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

/**
 * The state of a round trip, derived from the browser's binding secret (issue 20): the state is seen by
 * the provider, its logs and the address bar; the binding only by the console's httpOnly cookie. A
 * callback must bring both, and nobody can work the binding out from the state.
 */
export const stateOf = (binding: string) => crypto.createHash('sha256').update(`payshare oauth state\0${binding}`).digest('base64url')

/** Whether a callback's state is the one its binding makes. */
export function stateMatches(state: string, binding: string): boolean {
  const expected = Buffer.from(stateOf(binding))
  const given = Buffer.from(state)
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}

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
