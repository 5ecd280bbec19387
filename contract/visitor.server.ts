import crypto from 'node:crypto'

/**
 * The `x-visitor-id` header the console sends with a share lookup: `<id>.<HMAC>`, signed with the
 * session secret both services share (DATA_DIR/secrets.json or SESSION_SECRET). The API counts a
 * visit under the id only when the signature holds; anyone can call the API, so an unsigned id would
 * let a script make up a new visitor per request.
 */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

// A purpose of its own, so this signature can never stand in for another one made with the same secret.
const mac = (id: string, secret: string) => crypto.createHmac('sha256', secret).update(`payshare visitor id\0${id}`).digest('base64url')

export function signVisitorId(id: string, secret: string): string {
  if (!VISITOR_ID_PATTERN.test(id)) throw new Error('not a visitor id')
  return `${id}.${mac(id, secret)}`
}

/** The id of a well-signed header value, else null. */
export function verifyVisitorId(value: string | undefined, secret: string): string | null {
  if (!value || value.length > 200) return null
  // A visitor's every request carries the same value: its HMAC is checked once per secret (decision 150).
  const known = verified.get(value)
  if (known && known.secret === secret) return known.id
  const dot = value.indexOf('.')
  if (dot < 0) return null
  const id = value.slice(0, dot)
  if (!VISITOR_ID_PATTERN.test(id)) return null
  const given = Buffer.from(value.slice(dot + 1))
  const expected = Buffer.from(mac(id, secret))
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null
  // Only well-signed values are kept (a forger cannot fill this), and at most MAX_VERIFIED of them.
  if (verified.size >= MAX_VERIFIED) verified.clear()
  verified.set(value, { secret, id })
  return id
}
const MAX_VERIFIED = 50_000
const verified = new Map<string, { secret: string; id: string }>()
