import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.ts'
import { metrics } from '../../metrics.ts'
import type { PaymentProviders } from '../../providers/payments/index.ts'
import type { RefundState } from '#contract/orders.ts'
import type {
  PaymentNotification,
  PaymentProvider,
  PaymentProviderName,
  RefundNotification,
  RefundQueryState,
  RefundResult,
} from '../../providers/payments/types.ts'
import { NotificationRejected } from '../../providers/payments/types.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { recordAudit } from '../audit/index.ts'
import { postRefund, postSale } from '../ledger/index.ts'
import { countPurchase, lockShareAndSeller } from '../shares/index.ts'
import {
  claimGatewayQuery,
  findRefundOrder,
  lockOrderByNo,
  lockOwedRefund,
  markFailed,
  markQueried,
  markRefunded,
  markRefundFailed,
  owedRefunds,
  recordInboundEvent,
  recordPayment,
} from './repository.ts'
import type { OrderEffects } from './products.ts'
import { honoursPayment, platformFee, refundNoFor } from './rules.ts'

/** `refunding`: paid for a share no longer for sale — recorded, and refunded (decision 042). */
type SettleOutcome = 'paid' | 'refunding' | 'closed' | 'duplicate' | 'ignored'

/** What following a refund up needs: the time now (the app's clock) and the API's public URL (refund notify_url). */
export type RefundContext = { clock: () => Date; apiPublicUrl: string; log?: FastifyBaseLogger }

/**
 * What settling a payment needs to know: the fee rate when the seller has no open channel, how long
 * income stays unsettled, what a paid channel or package opens, and what a refund it owes needs.
 */
export type SettlePolicy = { defaultFeeBp: number; settlementDelayMs: number; effects: OrderEffects } & Omit<RefundContext, 'log'>
type SettleOptions = SettlePolicy & { log?: FastifyBaseLogger }

type AppSettings = { config: { defaultFeeBp: number; settlementDelayMs: number; apiPublicUrl: string }; clock: () => Date; orderEffects: OrderEffects }

/** The settlement policy of a running app. */
export const settlePolicy = (app: AppSettings): SettlePolicy => ({
  defaultFeeBp: app.config.defaultFeeBp,
  settlementDelayMs: app.config.settlementDelayMs,
  clock: app.clock,
  apiPublicUrl: app.config.apiPublicUrl,
  effects: app.orderEffects,
})

/** The refund context of a running app. */
export const refundContext = (app: Pick<AppSettings, 'clock'> & { config: { apiPublicUrl: string } }): RefundContext => ({
  clock: app.clock,
  apiPublicUrl: app.config.apiPublicUrl,
})

/**
 * Applies a verified gateway notification in ONE transaction (DESIGN §6 money): the event is recorded
 * under a unique (provider, event key) — a replay hits the key and changes nothing — the order row is
 * locked, the amount must equal the order's, and a payment posts exactly one `sale` ledger entry
 * (unique per order). A late payment on an expired (Failed) order is still honoured: the money was taken.
 * A payment for a share no longer for sale is recorded as paid and turned into a refund in the same
 * transaction (status Refund, sale and refund posted, the content never shown); the gateway refund
 * follows the commit (finishOwedRefund).
 */
async function applyNotification(db: Database, provider: PaymentProviderName, n: PaymentNotification, opts: SettlePolicy): Promise<SettleOutcome> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await recordInboundEvent(tx, { provider, eventKey: n.eventKey, orderNo: n.orderNo, state: n.state }))) return 'duplicate'

      const order = await lockOrderByNo(tx, n.orderNo)
      if (!order) throw new NotificationRejected(`unknown order ${n.orderNo}`)
      if (order.provider !== provider) throw new NotificationRejected(`order ${n.orderNo} belongs to ${order.provider}`)

      if (n.state === 'PAID') {
        if (n.amount !== order.amountFen) throw new NotificationRejected(`amount ${n.amount} ≠ order ${order.amountFen}`)
        if (order.paymentStatus === 'Completed' || order.paymentStatus === 'Refund') return 'duplicate'
        const now = opts.clock()
        if (order.productType === 'channel') {
          await recordPayment(tx, order.id, { paymentStatus: 'Completed', providerTradeNo: n.tradeNo, paidAt: now, feeFen: 0, sellerIncomeFen: 0 })
          await opts.effects.channel.paid(tx, order, now)
          return 'paid'
        }
        if (order.productType === 'package') {
          await recordPayment(tx, order.id, { paymentStatus: 'Completed', providerTradeNo: n.tradeNo, paidAt: now, feeFen: 0, sellerIncomeFen: 0 })
          await opts.effects.package.paid(tx, order, now)
          return 'paid'
        }
        // The seller, then the share, read under share locks: a ban or take-down being committed
        // beside this payment is waited for and seen, never read from before it (issue 20); one
        // committed after this waits for the sale, which then happened before it. Seller first, as the
        // ban and the fraud action lock them, so the two never wait on each other.
        const [share] = order.shareId ? await lockShareAndSeller(tx, order.shareId) : []
        const honoured = honoursPayment(share)
        // The fee rate of the sale is fixed now: the seller's best open channel, else the default.
        const feeRateBp = order.sellerId ? await opts.effects.saleFeeRateBp(tx, order.sellerId, now, opts.defaultFeeBp) : opts.defaultFeeBp
        const fee = platformFee(order.amountFen, feeRateBp)
        const settleAt = new Date(now.getTime() + opts.settlementDelayMs)
        const paid = { ...order, feeFen: fee, feeRateBp, sellerIncomeFen: order.amountFen - fee, settleAt }
        await recordPayment(tx, order.id, {
          paymentStatus: honoured ? 'Completed' : 'Refund',
          providerTradeNo: n.tradeNo,
          paidAt: now,
          feeFen: fee,
          feeRateBp,
          settleAt,
          sellerIncomeFen: paid.sellerIncomeFen,
        })
        await postSale(tx, paid, now)
        if (!honoured) {
          await postRefund(tx, paid, now)
          await recordAudit(tx, {
            subject: 'order',
            subjectId: order.id,
            action: 'refund',
            actorId: null,
            from: order.paymentStatus,
            to: 'refund_pending',
            reason: 'share no longer for sale',
            at: now,
          })
          return 'refunding'
        }
        if (order.shareId) await countPurchase(tx, order.shareId)
        return 'paid'
      }
      if (n.state === 'CLOSED') {
        if (order.paymentStatus !== 'Pending') return 'ignored'
        await markFailed(tx, order.id)
        return 'closed'
      }
      return 'ignored'
    })
  } catch (e) {
    // The same gateway trade number on a second order: forged or misrouted.
    if (uniqueViolation(e) === 'orders_provider_trade_key') throw new NotificationRejected(`trade ${n.tradeNo} already used`)
    throw e
  }
}

/**
 * A notification applied, and the refund it may owe followed up at the gateway. A replayed or racing
 * notify follows up an owed refund that is not confirmed yet (the gateway refunds a refund number once).
 */
export async function settleNotification(db: Database, provider: PaymentProvider, n: PaymentNotification, opts: SettleOptions): Promise<SettleOutcome> {
  const outcome = await applyNotification(db, provider.name, n, opts)
  if (outcome === 'refunding' || outcome === 'duplicate') await followUpRefund(db, provider, n.orderNo, { ...opts, reason: 'share no longer for sale' })
  return outcome
}

/** Where a gateway reports refunds, when it does (WeChat Pay). */
const refundNotifyUrl = (provider: PaymentProvider, apiPublicUrl: string) =>
  provider.parseRefundNotification ? `${apiPublicUrl}/api/payments/${provider.name}/refund-notify` : undefined

/**
 * Refunds a paid order in full at its gateway, under the order's one refund number: SUCCESS, or
 * PROCESSING (the outcome comes by notification or query). Throws ProviderError.
 */
export async function refundAtGateway(
  provider: PaymentProvider,
  order: { orderNo: string; amountFen: number },
  reason: string,
  ctx: Pick<RefundContext, 'apiPublicUrl'>,
): Promise<RefundResult> {
  return provider.refund({
    orderNo: order.orderNo,
    refundNo: refundNoFor(order.orderNo),
    amount: order.amountFen,
    totalAmount: order.amountFen,
    reason,
    notifyUrl: refundNotifyUrl(provider, ctx.apiPublicUrl),
  })
}

/**
 * Records where an order's refund stands at the gateway: SUCCESS sets `refunded_at` (once); CLOSED and
 * ABNORMAL are final failures, kept on the order (`refund_failure`) for an admin and logged as errors.
 * Each change is kept in the order's audit trail in the same transaction (issue 9); `actorId` is the
 * admin who asked again, null when a notification or the sweep brought the answer.
 */
async function recordRefundState(
  db: Database,
  order: { id: number; orderNo: string },
  state: Exclude<RefundQueryState, 'NOT_FOUND'>,
  ctx: RefundContext & { actorId?: number | null },
): Promise<RefundState> {
  const outcome = await applyRefundState(db, order, state, ctx)
  metrics.refunds.inc({ outcome })
  return outcome
}

async function applyRefundState(
  db: Database,
  order: { id: number; orderNo: string },
  state: Exclude<RefundQueryState, 'NOT_FOUND'>,
  ctx: RefundContext & { actorId?: number | null },
): Promise<RefundState> {
  if (state === 'PROCESSING') return 'pending'
  const actorId = ctx.actorId ?? null
  if (state === 'SUCCESS') {
    const done = await db.transaction(async (tx) => {
      const was = await lockOwedRefund(tx, order.id)
      if (!was) return false
      const at = ctx.clock()
      await markRefunded(tx, order.id, at)
      await recordAudit(tx, {
        subject: 'order',
        subjectId: order.id,
        action: 'refund_confirmed',
        actorId,
        from: was.failure ? 'refund_failed' : 'refund_pending',
        to: 'refunded',
        at,
      })
      return true
    })
    if (done) ctx.log?.info({ orderNo: order.orderNo }, 'refund confirmed by the gateway')
    return 'done'
  }
  await db.transaction(async (tx) => {
    const was = await lockOwedRefund(tx, order.id)
    // Already failed with this answer: nothing changes, nothing to record.
    if (!was || was.failure === state) return
    await markRefundFailed(tx, order.id, state)
    await recordAudit(tx, {
      subject: 'order',
      subjectId: order.id,
      action: 'refund_failed',
      actorId,
      from: was.failure ? 'refund_failed' : 'refund_pending',
      to: 'refund_failed',
      reason: state,
      at: ctx.clock(),
    })
  })
  ctx.log?.error({ orderNo: order.orderNo, state }, 'the gateway did not complete the refund; an admin must handle it')
  return 'failed'
}

/**
 * Follows up the refund of an order marked Refund whose gateway refund is not confirmed (`refunded_at`
 * unset; decision 057): asks the gateway where it stands, requests it (same refund number) only when
 * the gateway never got it, and records the answer. A failed refund is left alone unless
 * `recheckFailed` (an admin asking again). Null when the order owes no refund; `unknown` when the
 * gateway could not be asked or refused — logged, and retried by the next replay, sweep or admin.
 */
export async function followUpRefund(
  db: Database,
  provider: PaymentProvider,
  orderNo: string,
  ctx: RefundContext & { reason?: string; recheckFailed?: boolean; actorId?: number | null },
): Promise<RefundState | 'unknown' | null> {
  const owed = await findRefundOrder(db, orderNo)
  if (!owed) return null
  if (owed.refundedAt) return 'done'
  if (owed.refundFailure && !ctx.recheckFailed) return 'failed'
  await markQueried(db, owed.id, ctx.clock())
  let state: RefundQueryState
  try {
    state = await provider.queryRefund({ orderNo, refundNo: refundNoFor(orderNo) })
    if (state === 'NOT_FOUND') state = (await refundAtGateway(provider, owed, ctx.reason ?? 'refund', ctx)).state
  } catch (err) {
    ctx.log?.error({ err, orderNo }, 'refund not completed at the gateway; retried later')
    return 'unknown'
  }
  return recordRefundState(db, owed, state, ctx)
}

/**
 * The minute sweep: every refund not yet confirmed nor failed, at a gateway that is configured, is
 * followed up — the ones asked about longest ago first. Returns how many are confirmed now.
 */
export async function finishOwedRefunds(db: Database, payments: PaymentProviders, ctx: RefundContext): Promise<number> {
  const owed = await owedRefunds(db, 100)
  let done = 0
  for (const o of owed) {
    const provider = payments.byName(o.provider)
    if (provider && (await followUpRefund(db, provider, o.orderNo, ctx)) === 'done') done++
  }
  return done
}

/**
 * Applies a verified refund notification (WeChat REFUND.*) in one transaction: recorded once under its
 * event key (a replay changes nothing), the order locked, the refund must be this order's one refund
 * of its full amount. SUCCESS confirms the refund; CLOSED / ABNORMAL mark it failed. A refund this
 * service did not request (e.g. made in the merchant console) is acknowledged and logged, not applied.
 */
export async function settleRefundNotification(
  db: Database,
  provider: PaymentProviderName,
  n: RefundNotification,
  ctx: RefundContext,
): Promise<'refunded' | 'failed' | 'duplicate' | 'ignored'> {
  return db.transaction(async (tx) => {
    if (!(await recordInboundEvent(tx, { provider, eventKey: n.eventKey, orderNo: n.orderNo, state: `REFUND_${n.state}` }))) return 'duplicate'
    const order = await lockOrderByNo(tx, n.orderNo)
    if (!order) throw new NotificationRejected(`unknown order ${n.orderNo}`)
    if (order.provider !== provider) throw new NotificationRejected(`order ${n.orderNo} belongs to ${order.provider}`)
    if (n.refundNo !== refundNoFor(order.orderNo)) {
      ctx.log?.warn({ orderNo: n.orderNo, refundNo: n.refundNo, state: n.state }, 'notification of a refund this service did not request')
      return 'ignored'
    }
    if (n.amount !== order.amountFen) throw new NotificationRejected(`refund amount ${n.amount} ≠ order ${order.amountFen}`)
    // Not marked Refund yet (the notify overtook our commit: the sweep will ask), or confirmed already.
    if (order.paymentStatus !== 'Refund' || order.refundedAt) return 'ignored'
    const state = await recordRefundState(tx, order, n.state, ctx)
    return state === 'done' ? 'refunded' : 'failed'
  })
}

/**
 * When the buyer is waiting and no notify has come, ask the gateway (DESIGN §3: "the poll asks the
 * provider"), at most every few seconds per order, and settle what it says through the same path.
 */
export async function reconcileWithGateway(db: Database, provider: PaymentProvider, orderNo: string, opts: SettleOptions): Promise<void> {
  const now = opts.clock()
  const row = await claimGatewayQuery(db, orderNo, now)
  if (!row) return
  // Only recently created orders are worth a gateway call; an old Failed order waits for its notify.
  if (row.status === 'Failed' && now.getTime() - row.expiresAt.getTime() > 24 * 3600 * 1000) return
  const q = await provider.queryPayment(orderNo)
  if (q.state === 'PAID' && q.tradeNo && q.amount !== undefined) {
    await settleNotification(db, provider, { eventKey: `query:${q.tradeNo}`, orderNo, tradeNo: q.tradeNo, amount: q.amount, state: 'PAID' }, opts)
  }
}
