import crypto from 'node:crypto'
import { type ShareStatus, UNICODE_ALPHABET, UNICODE_LENGTH } from '#contract/shares.ts'

/** A new share code: 8 characters from the look-alike-free alphabet, uniformly random. */
export function newUnicode(): string {
  let out = ''
  for (let i = 0; i < UNICODE_LENGTH; i++) out += UNICODE_ALPHABET[crypto.randomInt(UNICODE_ALPHABET.length)]
  return out
}

/** Editing title, content or type sends a share back to review; banned shares cannot be edited. */
export function statusAfterSellerEdit(current: ShareStatus, touchesReviewedFields: boolean): ShareStatus | 'locked' {
  if (current === 'violation') return 'locked'
  if (current === 'reported_invalid' && touchesReviewedFields) return 'locked'
  return touchesReviewedFields ? 'under_review' : current
}

/** The visit day (Asia/Shanghai, UTC+8 without DST) for once-a-day visit counting. */
export function shanghaiDay(at: Date = new Date()): string {
  return new Date(at.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 10)
}

export function visitorKey(parts: { visitorId?: string; ip: string; userAgent?: string }): string {
  const base = parts.visitorId && /^[A-Za-z0-9_-]{16,64}$/.test(parts.visitorId) ? `v:${parts.visitorId}` : `ip:${parts.ip}|${parts.userAgent ?? ''}`
  return crypto.createHash('sha256').update(base).digest('base64url').slice(0, 32)
}
