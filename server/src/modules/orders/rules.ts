import crypto from 'node:crypto'
import type { PaymentStatus, RefundState, RevealKind } from '#contract/orders.ts'

/** Pending orders expire after 30 minutes (DESIGN §3 Buying). */
export const ORDER_TTL_MS = 30 * 60 * 1000
/** A waiting buyer's poll asks the gateway at most this often when the notify is late. */
export const QUERY_INTERVAL_MS = 5_000

/** `PS` + yyyyMMddHHmmss (Asia/Shanghai) + 12 random digits: sortable, ≤ 32 chars, unguessable. */
export function newOrderNo(now: Date = new Date()): string {
  const t = new Date(now.getTime() + 8 * 3600 * 1000).toISOString().replace(/\D/g, '').slice(0, 14)
  const rand = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0') + String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')
  return `PS${t}${rand}`
}

/**
 * A share order's buyer key (decision 102): 128 random bits for the client that created the order, the
 * proof that a browser is its buyer. Only a hash is stored, so a copy of the database proves nothing.
 */
export function newBuyerKey(): { key: string; hash: string } {
  const key = crypto.randomBytes(16).toString('base64url')
  return { key, hash: hashBuyerKey(key) }
}

const hashBuyerKey = (key: string) => crypto.createHash('sha256').update(`payshare buyer key\0${key}`).digest('base64url')

function keyMatches(key: string, hash: string): boolean {
  const given = Buffer.from(hashBuyerKey(key))
  const stored = Buffer.from(hash)
  return given.length === stored.length && crypto.timingSafeEqual(given, stored)
}

/** Who is asking, as far as being an order's buyer goes: the token's account, and the buyer key sent with it. */
export type BuyerClaim = { userId: number | null; buyerKey: string | null }
export type BuyerSide = { buyerId: number | null; sellerId: number | null; buyerKeyHash: string | null }

/**
 * How the caller is the order's buyer (decision 102): `account` — the buyer's own account; `browser` —
 * it holds the order's buyer key (the client that created the order); null — it is not the buyer. The
 * order number is no proof (the seller sees its sales), and the seller's account is never its own
 * buyer, whatever key it sends.
 */
export function buyerProof(order: BuyerSide, claim: BuyerClaim): 'account' | 'browser' | null {
  if (claim.userId !== null && claim.userId === order.sellerId) return null
  if (order.buyerId !== null && claim.userId === order.buyerId) return 'account'
  if (claim.buyerKey !== null && order.buyerKeyHash !== null && keyMatches(claim.buyerKey, order.buyerKeyHash)) return 'browser'
  return null
}

/**
 * How the content of an order is being shown (decision 102): to its owner (the seller), to the buyer's
 * account or browser, to an admin, or to someone holding only the order number. Only the buyer's count.
 */
export function revealKind(order: BuyerSide, viewer: { id: number; role: string } | null, buyerKey: string | null): RevealKind {
  if (viewer && viewer.id === order.sellerId) return 'owner'
  const proof = buyerProof(order, { userId: viewer?.id ?? null, buyerKey })
  if (proof === 'account') return 'buyer_account'
  if (proof === 'browser') return 'buyer_browser'
  return viewer?.role === 'admin' ? 'admin' : 'order_number'
}

/** Platform fee in fen, rounded half up, never more than the amount (DESIGN §3 Income). */
export function platformFee(amountFen: number, feeBasisPoints: number): number {
  return Math.min(amountFen, Math.floor((amountFen * feeBasisPoints + 5000) / 10000))
}

/** The gateway refund number of an order: the same on every retry, so the gateway refunds once. */
export const refundNoFor = (orderNo: string) => `R${orderNo}`

/**
 * Where the refund of an order stands (decision 057): none unless it is `Refund`; `done` once the
 * gateway confirmed it, `failed` when the gateway closed it or it is abnormal, `pending` otherwise.
 */
export function refundState(o: { paymentStatus: PaymentStatus; refundedAt: Date | null; refundFailure: string | null }): RefundState | null {
  if (o.paymentStatus !== 'Refund') return null
  if (o.refundedAt) return 'done'
  return o.refundFailure ? 'failed' : 'pending'
}

/**
 * Whether a payment arriving now is honoured (decision 042): the share must still be approved and its
 * seller not banned. A share deleted after the order was created still is — deleting stops new
 * sales, not the ones already begun. Otherwise the payment is recorded and refunded.
 */
export function honoursPayment(share: { status: string; sellerBanned: number } | undefined): boolean {
  return share !== undefined && share.status === 'approved' && share.sellerBanned !== 1
}
