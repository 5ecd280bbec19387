import crypto from 'node:crypto'
import type { CODE_CHANNELS, CODE_PURPOSES } from '#contract/auth.ts'

// DESIGN §3 Accounts: 6 digits, valid 10 minutes, one send per target per 60 s, at most 10 per target
// per day, 5 wrong tries void the code.
export const CODE_TTL_MS = 10 * 60 * 1000
export const CODE_RESEND_MS = 60 * 1000
export const CODE_DAILY_MAX = 10
export const CODE_MAX_ATTEMPTS = 5

export type CodePurpose = (typeof CODE_PURPOSES)[number]
export type CodeTarget = { channel: (typeof CODE_CHANNELS)[number]; target: string }

/** Where a code goes: the phone when both are given, emails compared in lower case. */
export const targetOf = (q: { email?: string; phone?: string }): CodeTarget | null =>
  q.phone ? { channel: 'sms', target: q.phone } : q.email ? { channel: 'email', target: q.email.toLowerCase() } : null

/** The account lookup for the address a code goes to. */
export const addressOf = (t: CodeTarget): { email: string } | { phone: string } => (t.channel === 'sms' ? { phone: t.target } : { email: t.target })

/** Keyed by purpose and target so a code for one use cannot serve another. */
export function hashCode(pepper: string, purpose: string, target: string, code: string): string {
  return crypto.createHmac('sha256', pepper).update(`${purpose}\n${target.toLowerCase()}\n${code}`).digest('hex')
}

export function codesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

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
export const accountThrottleKey = (accountId: number) => `uid:${accountId}`

/** A banned or disabled account may not log in, nor use a token it still holds. */
export const mayLogIn = (u: { isBanned: number; status: string }) => u.isBanned !== 1 && u.status === 'active'
