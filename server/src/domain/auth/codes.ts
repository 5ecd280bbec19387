import crypto from 'node:crypto'

// DESIGN §3 Accounts: 6 digits, valid 10 minutes, one send per target per 60 s, at most 10 per target
// per day, 5 wrong tries void the code.
export const CODE_TTL_MS = 10 * 60 * 1000
export const CODE_RESEND_MS = 60 * 1000
export const CODE_DAILY_MAX = 10
export const CODE_MAX_ATTEMPTS = 5

export const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')

/** Keyed by purpose and target so a code for one use cannot serve another. */
export function hashCode(pepper: string, purpose: string, target: string, code: string): string {
  return crypto.createHmac('sha256', pepper).update(`${purpose}\n${target.toLowerCase()}\n${code}`).digest('hex')
}

export function codesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}
