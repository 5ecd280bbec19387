import crypto from 'node:crypto'


/**
 * Who a visit is counted for (decision 106): the console's visitor id when its signature was verified
 * (`visitorId`), else the client's address — as the trusted hops report it (TRUST_PROXY), never what a
 * caller claims. Not the user agent: a script sends a new one with every request. Hashed: the stored
 * key says nothing about the visitor.
 */
export function visitorKey(parts: { visitorId: string | null; ip: string }): string {
  const base = parts.visitorId ? `v:${parts.visitorId}` : `ip:${parts.ip}`
  // A returning visitor (every poll of the share page) is hashed once: the hash was 4% of the API's
  // time under load on GET /api/share (decision 150). Bounded: cleared when full.
  let key = keys.get(base)
  if (key === undefined) {
    key = crypto.createHash('sha256').update(base).digest('base64url').slice(0, 32)
    if (keys.size >= MAX_KEYS) keys.clear()
    keys.set(base, key)
  }
  return key
}
const MAX_KEYS = 50_000
const keys = new Map<string, string>()

/**
 * Who reads a share by its code: the owner and admins always; a signed-in buyer with a completed
 * order; a deleted share only those (buyers keep what they paid for; nobody else finds it).
 */
export function shareAccess(v: { isOwner: boolean; isAdmin: boolean; hasBought: boolean; deleted: boolean }): 'content' | 'public' | 'none' {
  if (v.isOwner || v.isAdmin || v.hasBought) return 'content'
  return v.deleted ? 'none' : 'public'
}
