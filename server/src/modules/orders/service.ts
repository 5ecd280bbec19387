import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { type OrderCreated, type PaymentMethod, type ProductType, type RefundState, REVEALS_SHOWN, revealCounts, type RevealKind } from '#contract/orders.ts'
import type { Database } from '../../db/client.ts'
import { spend } from '../../plugins/app/rate-limits.ts'
import { AppError, conflict, notFound, tooMany } from '../../errors.ts'
import { ProviderError, type RefundResult } from '../../providers/payments/types.ts'
import { recordAudit } from '../audit/index.ts'
import { postRefund } from '../ledger/index.ts'
import { followUpRefund, reconcileWithGateway, refundAtGateway, refundContext, settlePolicy } from './settlement.ts'
import { presentOrder, presentPaymentStatus, presentReveal } from './presenter.ts'
import {
  expirePending,
  findOrder,
  findOrderWithCode,
  findShareByCode,
  insertOrder,
  listOrders,
  listReveals,
  lockOrder,
  type OrderListQuery,
  type OrderScope,
  upsertReveal,
  type RevealScope,
  updateOrder,
} from './repository.ts'
import { type BuyerSide, newBuyerKey, newOrderNo, ORDER_TTL_MS, refundState, revealKind } from './rules.ts'

/** What this module's use cases take from the app (decision 120). */
type OrdersDeps = Pick<FastifyInstance, 'clock' | 'config' | 'db' | 'limits' | 'orderEffects' | 'payments'>

/** Pending orders past their 30 minutes become Failed (a later notify still completes them). */
export function expirePendingOrders(db: Database, now: Date = new Date()): Promise<number> {
  return expirePending(db, now)
}

/** What an order buys: a share (its seller earns), or a channel or package (the platform sells). */
export type Product = {
  type: ProductType
  shareId?: number
  channelId?: number
  packageId?: number
  sellerId: number | null
  name: string
  amountFen: number
  /** Where the browser comes back after paying (console path, with the order number appended). */
  returnPath: string
}

/**
 * The one payment pipeline (issue 7): a Pending order for a product, and its payment started at the
 * gateway of the method. Shares, channels and packages all come through here and settle through the
 * same notify path (settlement.ts).
 */
export async function startOrder(
  deps: OrdersDeps,
  product: Product,
  input: { paymentMethod: PaymentMethod; buyerId: number | null; buyerKeyHash?: string; ip: string; log: FastifyBaseLogger },
): Promise<OrderCreated> {
  const { paymentMethod } = input
  const provider = deps.payments.forMethod(paymentMethod)
  // No real gateway for this method and the sandbox is off: the method is not offered.
  if (!provider) throw conflict('orders.methodUnavailable', { paymentMethod })
  const orderNo = newOrderNo()
  const expiresAt = new Date(deps.clock().getTime() + ORDER_TTL_MS)
  await insertOrder(deps.db, {
    orderNo,
    productType: product.type,
    shareId: product.shareId ?? null,
    channelId: product.channelId ?? null,
    packageId: product.packageId ?? null,
    sellerId: product.sellerId,
    buyerId: input.buyerId,
    buyerKeyHash: input.buyerKeyHash ?? null,
    productName: product.name,
    amountFen: product.amountFen,
    paymentMethod,
    provider: provider.name,
    buyerIp: input.ip,
    expiresAt,
  })
  try {
    const sep = product.returnPath.includes('?') ? '&' : '?'
    const pay = await provider.createPayment({
      orderNo,
      amount: product.amountFen,
      subject: product.name.replace(/[/=&]/g, ' ').slice(0, 120),
      method: paymentMethod,
      notifyUrl: `${deps.config.apiPublicUrl}/api/payments/${provider.name}/notify`,
      returnUrl: `${deps.config.webUrl}${product.returnPath}${sep}order=${orderNo}`,
      expiresAt,
      clientIp: input.ip,
    })
    await updateOrder(deps.db, orderNo, { checkoutUrl: pay.qrCode ?? pay.payUrl ?? null })
    return { orderNo, ...pay }
  } catch (e) {
    input.log.error({ err: e, orderNo }, 'gateway refused the payment')
    await updateOrder(deps.db, orderNo, { paymentStatus: 'Failed' })
    throw new AppError(502, 'orders.gatewayError')
  }
}

/**
 * An order for a share and its payment started at the gateway of the method; visitors need no account.
 * The answer carries the order's buyer key (decision 102), which exists nowhere else: the client that
 * created the order keeps it as its proof of being the buyer.
 */
export async function createOrder(
  deps: OrdersDeps,
  input: { unicode: string; paymentMethod: PaymentMethod; buyerId: number | null; ip: string; log: FastifyBaseLogger },
): Promise<OrderCreated> {
  const { unicode } = input
  const wait = await spend(deps.limits.orderIp, input.ip)
  if (wait) throw tooMany('errors.rateLimited', wait)
  const row = await findShareByCode(deps.db, unicode)
  if (!row) throw notFound('shares.notFound')
  if (row.share.status !== 'approved' || row.sellerBanned === 1) throw conflict('shares.notForSale', { status: row.share.status })
  // Two dead checks in a row (issue 25): no new orders until the seller fixes the link.
  if (row.share.linkStoppedAt) throw conflict('shares.linkBeingFixed')
  if (input.buyerId === row.share.userId) throw conflict('orders.ownShare')
  const product: Product = {
    type: 'share',
    shareId: row.share.id,
    sellerId: row.share.userId,
    name: row.share.title,
    amountFen: row.share.priceFen,
    returnPath: `/share/${unicode}`,
  }
  const key = newBuyerKey()
  return { ...(await startOrder(deps, product, { ...input, buyerKeyHash: key.hash })), buyerKey: key.key }
}

/** What the waiting page polls; asks the gateway when the notify is late. */
export async function paymentStatus(deps: OrdersDeps, orderNo: string, log: FastifyBaseLogger) {
  const order = await findOrder(deps.db, orderNo)
  if (!order) throw notFound('orders.notFound')
  if (order.paymentStatus === 'Pending' && order.expiresAt < deps.clock()) await expirePendingOrders(deps.db, deps.clock())
  if (order.paymentStatus === 'Pending' || order.paymentStatus === 'Failed') {
    const provider = deps.payments.byName(order.provider)
    if (provider) {
      await reconcileWithGateway(deps.db, provider, orderNo, { ...settlePolicy(deps), log }).catch((err) => log.warn({ err, orderNo }, 'payment query failed'))
    }
  }
  const fresh = (await findOrderWithCode(deps.db, order.id))!
  return presentPaymentStatus(fresh.order, fresh.unicode)
}

export async function orderPage(db: Database, q: OrderListQuery, scope: OrderScope, now: Date) {
  await expirePendingOrders(db, now)
  const { rows, total } = await listOrders(db, q, scope)
  return {
    list: rows.map((r) => presentOrder(r.order, { unicode: r.unicode, buyerName: r.buyerName, sellerName: r.sellerName }, now, { masked: scope.masked === true })),
    total,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
  }
}

/**
 * The content of a paid order was just shown (decision 102): how — `revealKind` — and to whom, from
 * where. Kept for the admin; when it is the buyer's, `first_revealed_at` is set once in the same
 * transaction — the only thing "ban seller and refund buyers" reads (decision 067).
 */
export async function recordReveal(
  db: Database,
  r: { order: BuyerSide & { id: number }; viewer: { id: number; role: string } | null; buyerKey: string | null; visitorId: string | null; ip: string; now: Date },
): Promise<RevealKind> {
  const how = revealKind(r.order, r.viewer, r.buyerKey)
  await db.transaction((tx) =>
    upsertReveal(tx, { orderId: r.order.id, how, counts: revealCounts(how), userId: r.viewer?.id ?? null, visitorId: r.visitorId, ip: r.ip, now: r.now }),
  )
  return how
}

/** The newest reveals of one order, or of a seller's orders paid since a time (the fraud preview), with their total. */
export async function revealList(db: Database, scope: RevealScope, limit = REVEALS_SHOWN) {
  const { rows, total } = await listReveals(db, scope, limit)
  return { list: rows.map(presentReveal), total }
}

/**
 * Who asked for a refund and why (the order's audit trail), and what else must commit with the refund
 * itself (`alsoInTx`: e.g. a fraud action counting what it refunded, decision 067).
 */
export type RefundAudit = {
  actorId: number | null
  reason?: string
  alsoInTx?: (tx: Database, order: { id: number; amountFen: number }) => Promise<void>
}

/**
 * An admin's refund of a completed order (decision 057): through the gateway first (same refund number
 * on every retry, so it refunds once), then Refund and the ledger debit in one transaction, once —
 * `refunded_at` only when the gateway answered SUCCESS; a PROCESSING refund is followed up by its
 * notification, the minute sweep or this action again. On an order already Refund whose refund is not
 * confirmed, the gateway is asked where it stands (a failed one too). The change is kept in the
 * order's audit trail (issue 9) with who asked for it and why.
 */
export async function refundOrder(
  deps: OrdersDeps,
  orderNo: string,
  log: FastifyBaseLogger,
  audit: RefundAudit = { actorId: null },
): Promise<{ orderNo: string; payment_status: 'Refund'; refund_state: RefundState }> {
  const answer = (refund_state: RefundState) => ({ orderNo, payment_status: 'Refund' as const, refund_state })
  const order = await findOrder(deps.db, orderNo)
  if (!order) throw notFound('orders.notFound')
  // A subscriber's free unlock: nothing was paid, so nothing can be refunded (decision 055).
  if (order.provider === 'subscription') throw conflict('subscriptions.unlockNotRefundable')
  if (order.paymentStatus !== 'Completed' && order.paymentStatus !== 'Refund') throw conflict('orders.notRefundable', { payment_status: order.paymentStatus })
  if (order.paymentStatus === 'Refund' && order.refundedAt) return answer('done')
  const provider = deps.payments.byName(order.provider)
  if (!provider) throw new AppError(502, 'orders.gatewayError')
  const ctx = { ...refundContext(deps), log }
  if (order.paymentStatus === 'Refund') {
    const state = await followUpRefund(deps.db, provider, orderNo, { ...ctx, recheckFailed: true, actorId: audit.actorId })
    if (state === 'done' || state === 'pending') return answer(state)
    throw new AppError(502, 'orders.refundFailed')
  }
  let result: RefundResult
  try {
    result = await refundAtGateway(provider, order, 'refund', ctx)
  } catch (e) {
    log.error({ err: e, orderNo }, 'refund failed at the gateway')
    throw new AppError(502, e instanceof ProviderError ? 'orders.refundFailed' : 'orders.gatewayError')
  }
  const confirmed = result.state === 'SUCCESS'
  const state = await deps.db.transaction(async (tx): Promise<RefundState> => {
    const locked = await lockOrder(tx, order.id)
    const now = deps.clock()
    if (locked?.paymentStatus === 'Completed') {
      await updateOrder(tx, orderNo, { paymentStatus: 'Refund', refundedAt: confirmed ? now : null })
      await postRefund(tx, locked, now)
      await recordAudit(tx, {
        subject: 'order',
        subjectId: locked.id,
        action: 'refund',
        actorId: audit.actorId,
        from: 'Completed',
        to: confirmed ? 'refunded' : 'refund_pending',
        reason: audit.reason,
        at: now,
      })
      await audit.alsoInTx?.(tx, locked)
      if (locked.productType === 'channel') await deps.orderEffects.channel.refunded(tx, locked, now)
      if (locked.productType === 'package') await deps.orderEffects.package.refunded(tx, locked, now)
      return confirmed ? 'done' : 'pending'
    }
    // A concurrent refund (or notification) got here first.
    if (confirmed && locked && !locked.refundedAt) {
      await updateOrder(tx, orderNo, { refundedAt: now, refundFailure: null })
      await recordAudit(tx, {
        subject: 'order',
        subjectId: locked.id,
        action: 'refund_confirmed',
        actorId: audit.actorId,
        from: 'refund_pending',
        to: 'refunded',
        at: now,
      })
    }
    return confirmed ? 'done' : ((locked && refundState(locked)) ?? 'pending')
  })
  return answer(state)
}
