import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { fenToYuan } from '#contract/money.ts'
import { FRAUD_PREVIEW_ROWS, type FraudPreview, type FraudResult, type SellerHistory, USER_DETAIL_ROWS, type UserDetail } from '#contract/oversight.ts'
import { AppError, conflict, notFound } from '../../errors.ts'
import { recordAudit } from '../audit/index.ts'
import { endAllSessions } from '../credentials/index.ts'
import { incomeSummary } from '../income/index.ts'
import { orderPage, refundOrder, revealList } from '../orders/index.ts'
import { listShares, takeDownAllOf } from '../shares/index.ts'
import { findUserById, lockUser, ownLoginRecords, presentUser, updateUser } from '../users/index.ts'
import { presentRun } from './presenter.ts'
import { claimRun, countRefund, findRun, finishRun, interruptRun, refundableOrders, refundableSums, sellerHistories, sharesStillUp } from './repository.ts'
import { FRAUD_BATCH, FRAUD_LEASE_MS, fraudReason, runSince } from './rules.ts'

/** What this module's use cases take from the app, with what the orders, shares and users use cases it calls take (decision 120). */
type OversightDeps = Pick<FastifyInstance, 'cipher' | 'clock' | 'config' | 'db' | 'limits' | 'orderEffects' | 'payments' | 'shareCache'>

/** An admin's view of one user (issue 9): the account, newest shares, orders both ways, logins, income. */
export async function userDetail(deps: OversightDeps, id: number): Promise<UserDetail> {
  const user = await findUserById(deps.db, id)
  if (!user) throw notFound()
  const now = deps.clock()
  const first = { pageNum: 1, pageSize: USER_DETAIL_ROWS }
  const [shares, buyerOrders, sellerOrders, logins, income] = await Promise.all([
    listShares(deps, { ...first, sort: 'created_at', order: 'desc' }, id),
    orderPage(deps.db, first, { buyerId: id }, now),
    orderPage(deps.db, first, { sellerId: id }, now),
    ownLoginRecords(deps, id, first),
    incomeSummary(deps.db, id, now),
  ])
  const short = <T>(p: { list: T[]; total: number }) => ({ list: p.list, total: p.total })
  return {
    user: presentUser(user),
    shares: short(shares),
    buyerOrders: short(buyerOrders),
    sellerOrders: short(sellerOrders),
    loginRecords: short(logins),
    income,
  }
}

async function sellerOf(deps: OversightDeps, id: number) {
  const seller = await findUserById(deps.db, id)
  if (!seller) throw notFound()
  return seller
}

/** What "ban seller and refund buyers" would do now (decision 067). Changes nothing. */
export async function fraudPreview(deps: OversightDeps, id: number): Promise<FraudPreview> {
  const seller = await sellerOf(deps, id)
  const now = deps.clock()
  const run = await findRun(deps.db, id)
  const since = runSince(run, now, deps.config.fraudRefundWindowDays)
  const [shares, orders, sums, reveals] = await Promise.all([
    sharesStillUp(deps.db, id),
    refundableOrders(deps.db, id, since, FRAUD_PREVIEW_ROWS),
    refundableSums(deps.db, id, since),
    revealList(deps.db, { sellerId: id, paidSince: since }),
  ])
  return {
    seller: { id: seller.id, user_name: seller.userName, is_banned: seller.isBanned === 1 ? 1 : 0, role: seller.role },
    window_days: deps.config.fraudRefundWindowDays,
    since: since.toISOString(),
    shares: shares.map((s) => ({ id: s.id, title: s.title, unicode: s.unicode, status: s.status, price: fenToYuan(s.priceFen) })),
    orders: orders.map((o) => ({
      id: o.id,
      orderNo: o.orderNo,
      product_name: o.productName,
      amount: fenToYuan(o.amountFen),
      paymentMethod: o.paymentMethod,
      username: o.buyerName,
      paid_at: o.paidAt!.toISOString(),
    })),
    order_count: sums.count,
    total: fenToYuan(sums.fen),
    run: run ? presentRun(run) : null,
    reveals,
  }
}

/**
 * "Ban seller and refund buyers" (decision 067). First, in one transaction: the seller's row in
 * fraud_actions is claimed (409 while another run holds it), the account banned and its sessions ended,
 * every share set to violation — each step in the audit trail. Then each refundable order is refunded
 * through the existing admin refund (its own gateway, its one refund number, its one ledger debit),
 * the run's count committed with each refund. A refund that fails stops the run (502, resumable at
 * once); a run that crashed is resumed after its lease. A repeat finds nothing left to refund.
 */
export async function fraudAction(deps: OversightDeps, actorId: number, id: number, log: FastifyBaseLogger): Promise<FraudResult> {
  if (id === actorId) throw conflict('oversight.fraud.self')
  const seller = await sellerOf(deps, id)
  if (seller.role === 'admin') throw conflict('oversight.fraud.admin')
  const now = deps.clock()
  const lease = () => new Date(deps.clock().getTime() + FRAUD_LEASE_MS)
  const started = await deps.db.transaction(async (tx) => {
    const before = await findRun(tx, id)
    const run = await claimRun(tx, { sellerId: id, actorId, since: runSince(before, now, deps.config.fraudRefundWindowDays), now, leaseUntil: lease() })
    if (!run) return null
    const reason = fraudReason(run.id)
    const user = (await lockUser(tx, id))!
    const banned = user.isBanned !== 1
    if (banned) {
      await updateUser(tx, id, { isBanned: 1 })
      await recordAudit(tx, { subject: 'user', subjectId: id, action: 'ban', actorId, from: 'active', to: 'banned', reason, at: now })
    }
    await endAllSessions(tx, id)
    const down = await takeDownAllOf(tx, id)
    for (const s of down)
      await recordAudit(tx, { subject: 'share', subjectId: s.id, action: 'fraud_take_down', actorId, from: s.status, to: 'violation', reason, at: now })
    if (banned || down.length > 0 || run.refundedCount === 0) {
      await recordAudit(tx, { subject: 'user', subjectId: id, action: 'fraud_action_start', actorId, reason, at: now })
    }
    return { run, banned, down }
  })
  if (!started) throw conflict('oversight.fraud.running')
  const { run, banned, down } = started
  deps.shareCache.invalidate()

  const reason = fraudReason(run.id)
  const refunded: FraudResult['refunded'] = []
  try {
    for (;;) {
      const batch = await refundableOrders(deps.db, id, run.since, FRAUD_BATCH)
      if (batch.length === 0) break
      for (const o of batch) {
        const r = await refundOrder(deps, o.orderNo, log, { actorId, reason, alsoInTx: (tx, order) => countRefund(tx, run.id, order.amountFen, lease()) })
        refunded.push({ orderNo: o.orderNo, amount: fenToYuan(o.amountFen), refund_state: r.refund_state })
      }
    }
  } catch (e) {
    const msg = e instanceof AppError ? e.msg : String(e)
    log.error({ err: e, sellerId: id, runId: run.id, refunded: refunded.length }, 'fraud action stopped; it resumes when run again')
    await interruptRun(deps.db, run.id, msg)
    throw new AppError(502, 'oversight.fraud.interrupted', { refunded: refunded.length, cause: msg })
  }
  const finished = await deps.db.transaction(async (tx) => {
    const row = await finishRun(tx, run.id, deps.clock())
    await recordAudit(tx, {
      subject: 'user',
      subjectId: id,
      action: 'fraud_action_done',
      actorId,
      reason: `${reason}: ${row.refundedCount} refunded, ¥${fenToYuan(row.refundedFen).toFixed(2)}`,
      at: deps.clock(),
    })
    return row
  })
  log.info({ sellerId: id, runId: run.id, refunded: refunded.length, shares: down.length }, 'fraud action done')
  return { banned, shares_taken_down: down.length, refunded, run: presentRun(finished) }
}

/** The records the admin queues show beside each item (decision 125). */
export async function sellerHistory(deps: Pick<OversightDeps, 'db'>, names: readonly string[]): Promise<{ list: SellerHistory[] }> {
  const rows = await sellerHistories(deps.db, names)
  return {
    list: rows.map((r) => ({
      id: r.id,
      user_name: r.userName,
      is_banned: r.isBanned ? 1 : 0,
      refunds: r.refunds,
      reports: r.reports,
      takedowns: r.takedowns,
      banned_shares: r.bannedShares,
    })),
  }
}
