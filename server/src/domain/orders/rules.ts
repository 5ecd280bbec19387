import crypto from 'node:crypto'

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
