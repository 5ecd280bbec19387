import crypto from 'node:crypto'

export const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000

/** Opaque random bearer token; only its SHA-256 is stored. */
export function newToken(): { token: string; tokenHash: string } {
  const token = crypto.randomBytes(32).toString('base64url')
  return { token, tokenHash: hashToken(token) }
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')
