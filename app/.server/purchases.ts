import crypto from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { BUYER_KEY_PATTERN, ORDER_NO_PATTERN, UNICODE_PATTERN } from '#contract/codes.ts'
import { signVisitorId, verifyVisitorId } from '#contract/visitor.server.ts'
import { env } from './env.ts'
import { secureFor } from './session.ts'

const YEAR = 365 * 24 * 3600

/**
 * The buyer keeps access without an account (DESIGN §3 Buying): a signed, httpOnly cookie maps share
 * codes to the order numbers bought in this browser (newest 30), each with the buyer key the API gave
 * this browser when it created the order (decision 102) — its proof of being the buyer, for the
 * after-sales chat and for a reveal to count. An order number reopened from `/` or a link has no key.
 */
const purchasesCookie = createCookie('ps_orders', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [env.sessionSecret], maxAge: YEAR })
/**
 * An anonymous visitor id, so a visit counts once per visitor per share per day. The cookie holds the
 * very `<id>.<HMAC>` value the API checks (node:crypto, synchronous): Remix's signed cookies sign with
 * WebCrypto on every first visit, a measurable share of the visitor page's render time (issue 6 bench).
 */
const VISITOR_COOKIE = 'ps_vid'
const visitorCookieValue = (request: Request) => /(?:^|;\s*)ps_vid=([^;]*)/.exec(request.headers.get('cookie') ?? '')?.[1]
const visitorSetCookie = (value: string, secure: boolean) =>
  `${VISITOR_COOKIE}=${value}; Max-Age=${YEAR}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`

/** A purchase of one share in this browser: its order number, and its buyer key when this browser created the order. */
export type Purchase = { orderNo: string; buyerKey: string | null }
export type Purchases = Record<string, Purchase>

// Stored compactly, `<order no>` or `<order no>.<buyer key>` per share code: 30 with keys stay far
// below a browser's 4 KB per cookie.
const stored = (p: Purchase) => (p.buyerKey ? `${p.orderNo}.${p.buyerKey}` : p.orderNo)
function parsed(value: unknown): Purchase | null {
  if (typeof value !== 'string') return null
  const [orderNo = '', buyerKey, ...rest] = value.split('.')
  if (!ORDER_NO_PATTERN.test(orderNo) || rest.length > 0) return null
  if (buyerKey === undefined) return { orderNo, buyerKey: null }
  return BUYER_KEY_PATTERN.test(buyerKey) ? { orderNo, buyerKey } : null
}

export async function readPurchases(request: Request): Promise<Purchases> {
  const v = (await purchasesCookie.parse(request.headers.get('cookie'))) as unknown
  if (!v || typeof v !== 'object') return {}
  const out: Purchases = {}
  for (const [k, o] of Object.entries(v as Record<string, unknown>)) {
    const p = parsed(o)
    if (UNICODE_PATTERN.test(k) && p) out[k] = p
  }
  return out
}

/**
 * Keeps `purchase` as this browser's purchase of `unicode`; a Set-Cookie value, or null when nothing
 * changes. A purchase this browser holds the key of is never replaced by an order number without one:
 * a link carrying another number must not cost the buyer its proof.
 */
export async function rememberPurchase(request: Request, unicode: string, purchase: Purchase): Promise<string | null> {
  const current = await readPurchases(request)
  const kept = current[unicode]
  if (kept && kept.orderNo === purchase.orderNo && (kept.buyerKey === purchase.buyerKey || !purchase.buyerKey)) return null
  if (kept?.buyerKey && !purchase.buyerKey) return null
  delete current[unicode]
  const next = Object.fromEntries([...Object.entries(current), [unicode, purchase] as const].slice(-30).map(([k, p]) => [k, stored(p)]))
  return purchasesCookie.serialize(next, { secure: secureFor(request) })
}

/**
 * The signed `x-visitor-id` value the API trusts (`header`: the visitor id and its HMAC), and a Set-Cookie
 * header when the id was just made. A browser without a valid cookie gets an id derived from its
 * address alone, not a random one and not its user agent: dropping or forging the cookie, or sending a
 * new User-Agent, must not make a new visitor (decision 106; the API counts an unsigned caller by
 * address too). The address is the one web-server.mjs wrote into X-Forwarded-For: the client as the
 * trusted proxies (TRUST_PROXY) report it, one address.
 */
export async function visitorId(request: Request): Promise<{ header: string; setCookie: string | null }> {
  const kept = visitorCookieValue(request)
  if (kept && verifyVisitorId(kept, env.sessionSecret)) return { header: kept, setCookie: null }
  const address = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? ''
  const id = crypto.createHmac('sha256', env.sessionSecret).update(`payshare visitor of\0${address}`).digest('base64url').slice(0, 22)
  const header = signVisitorId(id, env.sessionSecret)
  return { header, setCookie: visitorSetCookie(header, secureFor(request)) }
}

/** What `/` accepts: a share code, a pasted share link, or an order number. */
export function parseLookup(raw: string): { kind: 'share'; unicode: string } | { kind: 'order'; orderNo: string } | null {
  const value = raw.trim()
  if (UNICODE_PATTERN.test(value)) return { kind: 'share', unicode: value }
  if (ORDER_NO_PATTERN.test(value)) return { kind: 'order', orderNo: value }
  const m = /\/share\/([^/?#\s]{8})(?:[/?#]|$)/.exec(value)
  if (m && UNICODE_PATTERN.test(m[1]!)) return { kind: 'share', unicode: m[1]! }
  return null
}
