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

/** Keyed by purpose and target so a code for one use cannot serve another. */
export function hashCode(pepper: string, purpose: string, target: string, code: string): string {
  return crypto.createHmac('sha256', pepper).update(`${purpose}\n${target.toLowerCase()}\n${code}`).digest('hex')
}

export function codesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

/** The key failed logins and wrong current passwords of an account count against (auth/rules loginThrottleKey). */
export const accountThrottleKey = (accountId: number) => `uid:${accountId}`

/** A banned or disabled account may not log in, nor use a token it still holds. */
export const mayLogIn = (u: { isBanned: number; status: string }) => u.isBanned !== 1 && u.status === 'active'
