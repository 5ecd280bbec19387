import { shanghaiDay } from '#contract/days.ts'
import type { WithdrawalStatus } from '#contract/withdrawals.ts'

/** config.withdrawal: the minimum amount, the service fee rate (basis points) and its minimum, in fen. */
export type WithdrawalSettings = { minFen: number; feeBp: number; feeMinFen: number }

/**
 * The service fee of a withdrawal (DESIGN §3): the rate of the amount, rounded half up to the fen,
 * at least the minimum fee.
 */
export function serviceFeeFen(amountFen: number, s: WithdrawalSettings): number {
  return Math.max(s.feeMinFen, Math.floor((amountFen * s.feeBp + 5000) / 10000))
}

/** A refusal: the HTTP status (DESIGN §4) and the message key; 422 ones belong to the amount field. */
export type Refusal = { status: 409 | 422; msg: string }

export type WithdrawalCheck = { ok: true; feeFen: number; actualFen: number } | { ok: false; refusal: Refusal }

export type Seller = { isBanned: number; alipayRealName: string | null; alipayAccount: string | null }

const refuse = (status: 409 | 422, msg: string): WithdrawalCheck => ({ ok: false, refusal: { status, msg } })

/**
 * Whether a seller may withdraw `amountFen` now (DESIGN §3 Withdrawal, decision 048), checked in this
 * order: a banned seller, missing Alipay details, a negative balance (refunds of settled sales: it
 * blocks every amount until positive again), the minimum, a fee that leaves nothing, more than the
 * withdrawable income. The amount's format (> 0, ≤ 2 decimals) is the contract schema's.
 */
export function checkWithdrawal(input: { amountFen: number; withdrawableFen: number; seller: Seller; settings: WithdrawalSettings }): WithdrawalCheck {
  const { amountFen, withdrawableFen, seller, settings } = input
  if (!Number.isSafeInteger(amountFen) || amountFen <= 0) return refuse(422, 'withdrawals.amountPositive')
  if (seller.isBanned === 1) return refuse(409, 'withdrawals.sellerBanned')
  if (!seller.alipayRealName?.trim() || !seller.alipayAccount?.trim()) return refuse(409, 'withdrawals.alipayMissing')
  if (withdrawableFen < 0) return refuse(409, 'withdrawals.negativeBalance')
  if (amountFen < settings.minFen) return refuse(422, 'withdrawals.belowMinimum')
  const feeFen = serviceFeeFen(amountFen, settings)
  const actualFen = amountFen - feeFen
  if (actualFen <= 0) return refuse(422, 'withdrawals.feeExceedsAmount')
  if (amountFen > withdrawableFen) return refuse(409, 'withdrawals.exceedsWithdrawable')
  return { ok: true, feeFen, actualFen }
}

/** What an admin asks of a withdrawal. */
export type AdminAction = { kind: 'process'; transactionOrder: string } | { kind: 'reject' } | { kind: 'payout' }

/**
 * Whether an admin action applies to a withdrawal in its current state (decision 049): `apply` from
 * Pending; `repeat` when the same action already happened (answered 200, nothing changes); `conflict`
 * otherwise (409 with the current status).
 */
export function adminMove(current: { status: WithdrawalStatus; transactionOrder: string | null; payoutMethod: string | null }, action: AdminAction): 'apply' | 'repeat' | 'conflict' {
  if (current.status === 'Pending') return 'apply'
  if (action.kind === 'reject') return current.status === 'Failed' ? 'repeat' : 'conflict'
  if (current.status !== 'Completed') return 'conflict'
  if (action.kind === 'payout') return current.payoutMethod === 'alipay' ? 'repeat' : 'conflict'
  return current.payoutMethod === 'manual' && current.transactionOrder === action.transactionOrder ? 'repeat' : 'conflict'
}

/**
 * After an Alipay payout was started, nobody may process or reject the withdrawal by hand for this
 * long (decision 050): the transfer call (10 s timeout) may still be on its way to Alipay, where a
 * query would not find it yet.
 */
export const PAYOUT_SETTLE_MS = 60_000

/**
 * The out_biz_no of a withdrawal's payout: the same on every retry (Alipay's idempotency key), and
 * unlike that of any other withdrawal, even in another database (it names the application second).
 */
export function payoutNo(w: { id: number; createdAt: Date }): string {
  const t = new Date(w.createdAt.getTime() + 8 * 3600 * 1000).toISOString().replace(/\D/g, '').slice(0, 14)
  return `W${t}${String(w.id).padStart(10, '0')}`
}

/** What the payee's Alipay bill says. */
export const payoutTitle = (w: { id: number; createdAt: Date }) => `PayShare 提现 ${shanghaiDay(w.createdAt)} #${w.id}`
