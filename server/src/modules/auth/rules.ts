import { accountThrottleKey, type CodePurpose, type CodeTarget } from '../credentials/index.ts'

/** Where a code goes: the phone when both are given, emails compared in lower case. */
export const targetOf = (q: { email?: string; phone?: string }): CodeTarget | null =>
  q.phone ? { channel: 'sms', target: q.phone } : q.email ? { channel: 'email', target: q.email.toLowerCase() } : null

/** The account lookup for the address a code goes to. */
export const addressOf = (t: CodeTarget): { email: string } | { phone: string } => (t.channel === 'sms' ? { phone: t.target } : { email: t.target })

/**
 * Whether a requested code is really delivered. Sign-up and password-reset codes answer alike whether
 * or not the address has an account (no enumeration): a sign-up code only reaches an address without
 * one, a reset code only one with. Bind codes are asked for by a logged-in user, who is told instead
 * (see `bindRefused`).
 */
export function deliversCode(purpose: CodePurpose, addressHasAccount: boolean): boolean {
  if (purpose === 'register') return !addressHasAccount
  if (purpose === 'forgot') return addressHasAccount
  return true
}

/** A bind code for an address another account has is refused outright (the caller is logged in). */
export const bindRefused = (purpose: CodePurpose, addressHasAccount: boolean) => purpose === 'bind' && addressHasAccount

/**
 * The key failed logins count against: the account when the typed name, email or phone resolves to
 * one — so all three share one budget — else the typed text itself. A wrong current password on the
 * settings page counts against the same account key.
 */
export const loginThrottleKey = (typed: string, accountId?: number | null) =>
  accountId ? accountThrottleKey(accountId) : `name:${typed.trim().toLowerCase()}`
