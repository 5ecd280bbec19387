/**
 * The order values the console's components use (statuses, methods, how they are shown), in a module
 * without zod so a page's first load does not carry the schemas (issue 11, decision 099);
 * `contract/orders.ts` re-exports them.
 */
/** The ways to pay (SPEC §3 Order.paymentMethod): Alipay, or WeChat Pay (Native, a QR code). */
export const PAYMENT_METHODS = ['Alipay', 'WeChat'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/**
 * How an order was settled: a payment method, or `Subscription` — a subscriber's free unlock, a
 * zero-amount order nobody pays and nobody can refund (decision 055).
 */
export const ORDER_PAYMENT_METHODS = [...PAYMENT_METHODS, 'Subscription'] as const
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number]

/** Whether an admin may refund an order: a completed one that was paid (not a free unlock). */
export const isRefundable = (o: { payment_status: PaymentStatus; paymentMethod: OrderPaymentMethod }) =>
  o.payment_status === 'Completed' && o.paymentMethod !== 'Subscription'

/** What an order buys (issue 7: one pipeline for every product); `product_name` names it. */
export const PRODUCT_TYPES = ['share', 'channel', 'package'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]

/** SPEC §4 payment status. */
export const PAYMENT_STATUSES = ['Pending', 'Completed', 'Failed', 'Refund'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** How the console shows a payment status: its badge colour and its catalog key. */
export const PAYMENT_STATUS_VIEW = {
  Pending: { color: 'blue', label: 'orders.statuses.Pending' },
  Completed: { color: 'green', label: 'orders.statuses.Completed' },
  Failed: { color: 'gray', label: 'orders.statuses.Failed' },
  Refund: { color: 'grape', label: 'orders.statuses.Refund' },
} as const satisfies Record<PaymentStatus, { color: string; label: `orders.statuses.${PaymentStatus}` }>

/**
 * Where the gateway refund of a `Refund` order stands (decision 057): `pending` — asked for, not yet
 * confirmed (WeChat PROCESSING, or still owed); `done` — the gateway confirmed the money went back
 * (`refunded_at`); `failed` — the gateway closed it or it is abnormal: an admin must handle it.
 */
export const REFUND_STATES = ['pending', 'done', 'failed'] as const
export type RefundState = (typeof REFUND_STATES)[number]

/** The catalog key naming a payment method in lists. */
export const paymentMethodLabel = (m: OrderPaymentMethod) => `orders.methods.${m}` as const

/**
 * How the content of a paid share order came to be shown (decision 102): to the buyer's account, to the
 * browser that paid (its buyer key), to someone holding only the order number, to the share's owner, or
 * to an admin. Only the buyer's two count as revealed: "ban seller and refund buyers" leaves those
 * orders (decision 067).
 */
export const REVEAL_KINDS = ['buyer_account', 'buyer_browser', 'order_number', 'owner', 'admin'] as const
export type RevealKind = (typeof REVEAL_KINDS)[number]
export const revealCounts = (how: RevealKind) => how === 'buyer_account' || how === 'buyer_browser'
