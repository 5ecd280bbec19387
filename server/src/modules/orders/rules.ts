import crypto from 'node:crypto'
import type { PaymentStatus, RefundState } from '#contract/orders.ts'

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
