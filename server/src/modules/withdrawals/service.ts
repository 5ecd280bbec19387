import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { fenToYuan, yuanToFen } from '#contract/money.ts'
import type { Withdrawal, WithdrawalPreview } from '#contract/withdrawals.ts'
import type { Database } from '../../db/client.ts'
import { AppError, conflict, invalid, notFound } from '../../errors.ts'
import type { TransferOutcome } from '../../providers/payments/types.ts'
import { recordAudit } from '../audit/index.ts'
import { lockBalance, overdraftRefused, postWithdrawal, postWithdrawalReversal, withdrawableFen } from '../ledger/index.ts'
import { presentWithdrawal } from './presenter.ts'
import {
  findSeller,
  findWithdrawal,
  insertWithdrawal,
  listWithdrawals,
  lockWithdrawal,
  updateWithdrawal,
  type WithdrawalListQuery,
  type WithdrawalRow,
} from './repository.ts'
import { type AdminAction, adminMove, checkWithdrawal, PAYOUT_SETTLE_MS, payoutNo, payoutTitle, type Refusal, serviceFeeFen } from './rules.ts'

/** What this module's use cases take from the app (decision 120). */
type WithdrawalsDeps = Pick<FastifyInstance, 'clock' | 'config' | 'db' | 'payments'>

/** What an admin action answers: the withdrawal, and whether this call changed it (a repeat does not). */
export type AdminResult = { withdrawal: Withdrawal; changed: boolean }

const present = (row: WithdrawalRow, userName: string, admin: boolean) => presentWithdrawal(row, userName, { admin })

/** A refusal as the API answers it: 422 at the amount field, or 409 with the withdrawable income. */
function refusalError(r: Refusal, withdrawable: number): AppError {
  return r.status === 422 ? invalid({ amount: [r.msg] }) : conflict(r.msg, { withdrawable: fenToYuan(withdrawable) })
}

/** The figures of a withdrawal of `amount` before it is requested, and whether it would be accepted now. */
export async function previewWithdrawal(deps: WithdrawalsDeps, userId: number, amount: number | undefined): Promise<WithdrawalPreview> {
  const settings = deps.config.withdrawal
  const [seller, withdrawable] = await Promise.all([findSeller(deps.db, userId), withdrawableFen(deps.db, userId, deps.clock())])
  if (!seller) throw notFound()
  const base = {
    withdrawable: fenToYuan(withdrawable),
    minimum: fenToYuan(settings.minFen),
    feeRateBp: settings.feeBp,
    feeMinimum: fenToYuan(settings.feeMinFen),
  }
  if (amount === undefined) return { ...base, withdrawalAmount: null, withdrawalServiceFee: null, actualWithdrawalAmount: null, refusal: null }
  const amountFen = yuanToFen(amount)
  const feeFen = serviceFeeFen(amountFen, settings)
  const check = checkWithdrawal({ amountFen, withdrawableFen: withdrawable, seller, settings })
  return {
    ...base,
    withdrawalAmount: fenToYuan(amountFen),
    withdrawalServiceFee: fenToYuan(feeFen),
    actualWithdrawalAmount: fenToYuan(Math.max(0, amountFen - feeFen)),
    refusal: check.ok ? null : check.refusal.msg,
  }
}

/**
 * A seller's withdrawal request (DESIGN §3), in one transaction: the seller's balance row locked (so
 * concurrent requests run one after the other), the clock read and the withdrawable income computed
 * under that lock (decision 111), the rules checked, the withdrawal inserted with a snapshot of the
 * Alipay details, and the ledger debited — which the database itself refuses beyond the withdrawable
 * income (migration 0011). A refusal throws inside the transaction: nothing changes.
 */
export async function createWithdrawal(deps: WithdrawalsDeps, userId: number, amount: number): Promise<Withdrawal> {
  const settings = deps.config.withdrawal
  const amountFen = yuanToFen(amount)
  const { row, userName } = await deps.db.transaction(async (tx) => {
    const balance = await lockBalance(tx, userId)
    const now = deps.clock()
    const seller = await findSeller(tx, userId)
    if (!seller) throw notFound()
    const withdrawable = await withdrawableFen(tx, userId, now, balance.balanceFen)
    const check = checkWithdrawal({ amountFen, withdrawableFen: withdrawable, seller, settings })
    if (!check.ok) throw refusalError(check.refusal, withdrawable)
    const inserted = await insertWithdrawal(tx, {
      userId,
      amountFen,
      feeFen: check.feeFen,
      actualFen: check.actualFen,
      alipayAccount: seller.alipayAccount!.trim(),
      alipayRealName: seller.alipayRealName!.trim(),
      status: 'Pending',
      createdAt: now,
    })
    await postWithdrawal(tx, { id: inserted.id, userId, amountFen }, now)
    await recordAudit(tx, { subject: 'withdrawal', subjectId: inserted.id, action: 'request', actorId: userId, from: null, to: 'Pending', at: now })
    return { row: inserted, userName: seller.userName }
  }).catch(async (e: unknown) => {
    // Only if a check above was ever wrong: the database's guard answers as the rules would.
    if (!overdraftRefused(e)) throw e
    throw refusalError({ status: 409, msg: 'withdrawals.exceedsWithdrawable' }, await withdrawableFen(deps.db, userId, deps.clock()))
  })
  return present(row, userName, false)
}

export async function withdrawalPage(deps: WithdrawalsDeps, q: WithdrawalListQuery, scope: { userId?: number }) {
  const admin = scope.userId === undefined
  const { rows, total } = await listWithdrawals(deps.db, q, scope)
  return { list: rows.map((r) => present(r.w, r.userName, admin)), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

async function existing(deps: WithdrawalsDeps, id: number) {
  const found = await findWithdrawal(deps.db, id)
  if (!found) throw notFound('withdrawals.notFound')
  return found
}

/**
 * An admin action in one transaction on the locked withdrawal row (decision 049): applied to a Pending
 * withdrawal, answered unchanged when it repeats what was done, refused (409 with the status) otherwise.
 */
async function act(
  deps: WithdrawalsDeps,
  id: number,
  action: AdminAction,
  apply: (tx: Database, w: WithdrawalRow, now: Date) => Promise<WithdrawalRow>,
): Promise<AdminResult> {
  const { userName } = await existing(deps, id)
  return deps.db.transaction(async (tx) => {
    const w = await lockWithdrawal(tx, id)
    if (!w) throw notFound('withdrawals.notFound')
    const move = adminMove(w, action)
    if (move === 'conflict') throw conflict('withdrawals.notPending', { status: w.status })
    if (move === 'repeat') return { withdrawal: present(w, userName, true), changed: false }
    // An Alipay payout started meanwhile (decision 050).
    if (action.kind !== 'payout' && w.payoutMethod === 'alipay') throw conflict('withdrawals.payoutInProgress')
    return { withdrawal: present(await apply(tx, w, deps.clock()), userName, true), changed: true }
  })
}

/**
 * Before a withdrawal whose Alipay payout was started is processed or rejected by hand, Alipay is asked
 * what became of that payout (decision 050): paid → the withdrawal is Completed with Alipay's order;
 * refused or never received → the hand action may go ahead; not known yet → refused for now. Paying
 * twice (by hand and through Alipay), or returning money Alipay paid out, is what this prevents.
 */
async function settleStartedPayout(deps: WithdrawalsDeps, w: WithdrawalRow, adminId: number, log: FastifyBaseLogger) {
  if (w.status !== 'Pending' || w.payoutMethod !== 'alipay') return
  const started = w.processedAt?.getTime() ?? 0
  const provider = deps.payments.payout
  if (!provider || deps.clock().getTime() - started < PAYOUT_SETTLE_MS) throw conflict('withdrawals.payoutInProgress')
  const outcome = await provider.queryTransfer(payoutNo(w))
  log.info({ withdrawalId: w.id, outcome }, 'payout status asked before a manual action')
  if (outcome.state === 'UNKNOWN') throw conflict('withdrawals.payoutInProgress')
  await recordPayout(
    deps,
    w.id,
    outcome.state === 'NOT_FOUND' ? { state: 'FAILED', code: 'ORDER_NOT_EXIST', message: 'Alipay has no such transfer' } : outcome,
    adminId,
    log,
  )
}

/** The admin paid the withdrawal by hand and enters the transfer order number (SPEC §4) → Completed. */
export async function processWithdrawal(
  deps: WithdrawalsDeps,
  adminId: number,
  id: number,
  transactionOrder: string,
  log: FastifyBaseLogger,
): Promise<AdminResult> {
  await settleStartedPayout(deps, (await existing(deps, id)).w, adminId, log)
  return act(deps, id, { kind: 'process', transactionOrder }, async (tx, w, now) => {
    const row = await updateWithdrawal(tx, w.id, {
      status: 'Completed',
      transactionOrder,
      payoutMethod: 'manual',
      failureReason: null,
      processedAt: now,
      processedBy: adminId,
    })
    await recordAudit(tx, {
      subject: 'withdrawal',
      subjectId: w.id,
      action: 'process',
      actorId: adminId,
      from: w.status,
      to: 'Completed',
      reason: transactionOrder,
      at: now,
    })
    return row
  })
}

/** The admin refuses the withdrawal with a reason → Failed, and its amount is credited back, once. */
export async function rejectWithdrawal(deps: WithdrawalsDeps, adminId: number, id: number, reason: string, log: FastifyBaseLogger): Promise<AdminResult> {
  await settleStartedPayout(deps, (await existing(deps, id)).w, adminId, log)
  return act(deps, id, { kind: 'reject' }, async (tx, w, now) => {
    const row = await updateWithdrawal(tx, w.id, { status: 'Failed', failureReason: reason, payoutMethod: null, processedAt: now, processedBy: adminId })
    await postWithdrawalReversal(tx, { id: w.id, userId: w.userId, amountFen: w.amountFen }, now)
    await recordAudit(tx, { subject: 'withdrawal', subjectId: w.id, action: 'reject', actorId: adminId, from: w.status, to: 'Failed', reason, at: now })
    return row
  })
}

/**
 * Pays a Pending withdrawal out through Alipay (decision 050): the withdrawal is marked as being paid
 * out (so nobody processes or rejects it by hand meanwhile), the transfer is asked for with the
 * withdrawal's own out_biz_no (a retry can never pay twice), and its outcome recorded.
 */
export async function payoutWithdrawal(deps: WithdrawalsDeps, adminId: number, id: number, log: FastifyBaseLogger): Promise<AdminResult> {
  const provider = deps.payments.payout
  if (!provider) throw conflict('withdrawals.payoutUnavailable')
  const claimed = await act(deps, id, { kind: 'payout' }, async (tx, w, now) => {
    const row = await updateWithdrawal(tx, w.id, { payoutMethod: 'alipay', processedAt: now, processedBy: adminId, failureReason: null })
    await recordAudit(tx, { subject: 'withdrawal', subjectId: w.id, action: 'payout_start', actorId: adminId, from: w.status, to: 'paying_out', at: now })
    return row
  })
  if (!claimed.changed) return claimed
  const { w } = await existing(deps, id)
  const outcome = await provider.transfer({
    outBizNo: payoutNo(w),
    amount: w.actualFen,
    payee: { account: w.alipayAccount, realName: w.alipayRealName },
    title: payoutTitle(w),
  })
  log.info({ withdrawalId: id, outBizNo: payoutNo(w), outcome }, 'Alipay payout')
  const result = await recordPayout(deps, id, outcome, adminId, log)
  if (outcome.state === 'FAILED') throw new AppError(502, 'withdrawals.payoutFailed', { withdrawal: result.withdrawal })
  if (outcome.state === 'UNKNOWN') throw new AppError(502, 'withdrawals.payoutUnknown', { withdrawal: result.withdrawal })
  return result
}

/**
 * A payout's outcome, recorded on the locked row: paid → Completed with Alipay's order id; refused →
 * still Pending, the reason kept for the admin and the payout no longer running; unknown → still
 * Pending and still "being paid out", the reason kept (a retry uses the same out_biz_no).
 */
async function recordPayout(deps: WithdrawalsDeps, id: number, outcome: TransferOutcome, adminId: number, log: FastifyBaseLogger): Promise<AdminResult> {
  const { userName } = await existing(deps, id)
  return deps.db.transaction(async (tx) => {
    const w = (await lockWithdrawal(tx, id))!
    const now = deps.clock()
    if (outcome.state === 'SUCCESS') {
      if (w.status === 'Failed') {
        // Only if a hand rejection slipped past the settle window: the money went out and came back.
        log.error(
          { withdrawalId: id, orderId: outcome.orderId },
          'ALIPAY PAID OUT A REJECTED WITHDRAWAL: the amount was credited back to the seller; recover it by hand',
        )
      }
      if (w.status !== 'Pending') return { withdrawal: present(w, userName, true), changed: false }
      const row = await updateWithdrawal(tx, id, {
        status: 'Completed',
        transactionOrder: outcome.orderId,
        payoutMethod: 'alipay',
        failureReason: null,
        processedAt: now,
        processedBy: adminId,
      })
      // Alipay's answer, not the admin's decision: the system records it.
      await recordAudit(tx, {
        subject: 'withdrawal',
        subjectId: id,
        action: 'payout_success',
        actorId: null,
        from: 'paying_out',
        to: 'Completed',
        reason: outcome.orderId,
        at: now,
      })
      return { withdrawal: present(row, userName, true), changed: true }
    }
    if (w.status !== 'Pending' || w.payoutMethod !== 'alipay') return { withdrawal: present(w, userName, true), changed: false }
    const reason = `${outcome.code}: ${outcome.message}`.slice(0, 500)
    const row =
      outcome.state === 'FAILED'
        ? await updateWithdrawal(tx, id, { payoutMethod: null, processedAt: null, processedBy: null, failureReason: reason })
        : await updateWithdrawal(tx, id, { failureReason: reason })
    await recordAudit(tx, {
      subject: 'withdrawal',
      subjectId: id,
      action: outcome.state === 'FAILED' ? 'payout_failed' : 'payout_unknown',
      actorId: null,
      from: 'paying_out',
      to: outcome.state === 'FAILED' ? 'Pending' : 'paying_out',
      reason,
      at: now,
    })
    return { withdrawal: present(row, userName, true), changed: true }
  })
}
