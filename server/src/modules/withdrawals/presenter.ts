import { fenToYuan } from '#contract/money.ts'
import type { Withdrawal } from '#contract/withdrawals.ts'
import type { WithdrawalRow } from './repository.ts'

/**
 * SPEC §3 Withdrawal as the lists show it: amounts in yuan, times as ISO strings. While a withdrawal is
 * Pending, `failure_reason` holds the last Alipay payout problem and `processed_at` when that payout
 * began (decision 050): admins see the problem as `payout_error`, sellers see neither.
 */
export function presentWithdrawal(w: WithdrawalRow, userName: string, opts: { admin: boolean }): Withdrawal {
  const pending = w.status === 'Pending'
  return {
    id: w.id,
    username: userName,
    withdrawalAmount: fenToYuan(w.amountFen),
    withdrawalServiceFee: fenToYuan(w.feeFen),
    actualWithdrawalAmount: fenToYuan(w.actualFen),
    alipayAccount: w.alipayAccount,
    alipayRealName: w.alipayRealName,
    status: w.status,
    application_time: w.createdAt.toISOString(),
    processing_time: pending ? null : (w.processedAt?.toISOString() ?? null),
    transaction_order: pending ? null : w.transactionOrder,
    payout_method: pending ? (opts.admin ? w.payoutMethod : null) : w.payoutMethod,
    failure_reason: w.status === 'Failed' ? w.failureReason : null,
    payout_error: pending && opts.admin ? w.failureReason : null,
    created_at: w.createdAt.toISOString(),
  }
}
