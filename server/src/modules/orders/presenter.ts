import { fenToYuan } from '#contract/money.ts'
import { maskOrderNo, type Order, type OrderReveal, type PaymentStatusView, type ProductType } from '#contract/orders.ts'
import type { orderReveals, orders } from '../../db/schema/index.ts'
import { refundState } from './rules.ts'

type OrderRow = typeof orders.$inferSelect

/**
 * SPEC §3 Order as the lists show it: amounts in yuan, times as ISO strings; `settled` by the time
 * `now` (the app's clock). `masked`: the seller's view, which never sees its buyers' order numbers
 * whole (decision 102) — nor a free unlock's trade number, which is its order number.
 */
export function presentOrder(
  o: OrderRow,
  extra: { unicode: string | null; buyerName: string | null; sellerName: string | null },
  now: Date,
  view: { masked: boolean } = { masked: false },
): Order {
  const shown = (no: string) => (view.masked ? maskOrderNo(no) : no)
  return {
    id: o.id,
    orderNo: shown(o.orderNo),
    alipayTradeNo: o.providerTradeNo === null ? null : shown(o.providerTradeNo),
    username: extra.buyerName,
    seller_name: extra.sellerName,
    paymentMethod: o.paymentMethod,
    unicode: extra.unicode,
    amount: fenToYuan(o.amountFen),
    fee: o.feeFen === null ? null : fenToYuan(o.feeFen),
    seller_income: o.sellerIncomeFen === null ? null : fenToYuan(o.sellerIncomeFen),
    product_name: o.productName,
    product_type: o.productType,
    payment_status: o.paymentStatus,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
    settle_at: o.settleAt?.toISOString() ?? null,
    settled: o.settleAt !== null && o.settleAt <= now,
    first_revealed_at: o.firstRevealedAt?.toISOString() ?? null,
    refund_state: refundState(o),
  }
}

/**
 * Where the console takes a buyer once the order is paid (or over), by what it bought: the share page
 * (content), the make-money page (the channel's status), the package list (the subscription).
 */
export function returnPath(productType: ProductType, orderNo: string, unicode: string | null): string {
  const order = new URLSearchParams({ order: orderNo })
  if (productType === 'channel') return `/dashboard/makemoney?${order}`
  if (productType === 'package') return `/subscription-manage/package-list?${order}`
  return unicode ? `/share/${unicode}?${order}` : `/user/order-list`
}

/** What the waiting pages poll. The trade number only once paid; where to pay only while payable. */
export function presentPaymentStatus(o: OrderRow, unicode: string | null): PaymentStatusView {
  return {
    orderNo: o.orderNo,
    unicode,
    product_type: o.productType,
    product_name: o.productName,
    payment_status: o.paymentStatus,
    paymentMethod: o.paymentMethod,
    amount: fenToYuan(o.amountFen),
    third_party_trade_no: o.paymentStatus === 'Completed' ? (o.providerTradeNo ?? '') : '',
    expires_at: o.expiresAt.toISOString(),
    checkout_url: o.paymentStatus === 'Pending' ? o.checkoutUrl : null,
    return_path: returnPath(o.productType, o.orderNo, unicode),
  }
}

/** A reveal as the admin sees it (decision 102). */
export function presentReveal(r: { reveal: typeof orderReveals.$inferSelect; orderNo: string; username: string | null }): OrderReveal {
  return {
    order_id: r.reveal.orderId,
    orderNo: r.orderNo,
    how: r.reveal.how,
    counts: r.reveal.counts,
    user_id: r.reveal.userId,
    username: r.username,
    visitor_id: r.reveal.visitorId,
    ip: r.reveal.ip,
    first_at: r.reveal.firstAt.toISOString(),
    last_at: r.reveal.lastAt.toISOString(),
    times: r.reveal.times,
  }
}
