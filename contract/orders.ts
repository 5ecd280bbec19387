import { z } from 'zod'
import { orderNoSchema, unicodeSchema } from './codes.ts'
import { endpoint, pageOf, timestamp } from './http.ts'
import { idSchema, pageQuerySchema } from './users.ts'

export { BUYER_KEY_HEADER, buyerKeySchema, maskOrderNo, ORDER_NO_PATTERN, orderNoSchema } from './codes.ts'
export * from './values/orders.ts'
import { ORDER_PAYMENT_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES, PRODUCT_TYPES, REFUND_STATES, REVEAL_KINDS } from './values/orders.ts'

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: 'validation.paymentMethod' })

export const orderPaymentMethodSchema = z.enum(ORDER_PAYMENT_METHODS)

export const productTypeSchema = z.enum(PRODUCT_TYPES)

export const paymentStatusSchema = z.enum(PAYMENT_STATUSES)

export const orderCreateSchema = z.object({
  unicode: unicodeSchema,
  paymentMethod: paymentMethodSchema,
})

export const orderListQuerySchema = pageQuerySchema.extend({
  payment_status: z.enum(PAYMENT_STATUSES).optional(),
  unicode: z.string().trim().max(8).optional(),
  orderNo: z.string().trim().max(40).optional(),
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
  refund_state: z.enum(REFUND_STATES).optional(),
})

export const orderNoBodySchema = z.object({ orderNo: orderNoSchema })

/** SPEC §3 Order as lists show it; amounts in yuan. */
export const orderSchema = z.object({
  id: z.number().int(),
  /**
   * Whole for the buyer and admins; masked (`maskOrderNo`) in the seller's list: the order number of a
   * visitor's purchase once opened its chat, so the seller never sees it whole (decision 102).
   */
  orderNo: z.string(),
  /** The gateway's trade number; masked like `orderNo` for the seller when it is one of ours (a free unlock's). */
  alipayTradeNo: z.string().nullable(),
  username: z.string().nullable(),
  seller_name: z.string().nullable(),
  paymentMethod: orderPaymentMethodSchema,
  unicode: z.string().nullable(),
  amount: z.number(),
  fee: z.number().nullable(),
  seller_income: z.number().nullable(),
  product_name: z.string(),
  /** What the order buys; a channel or package order has no share code and no seller. */
  product_type: productTypeSchema,
  payment_status: paymentStatusSchema,
  created_at: timestamp,
  paid_at: timestamp.nullable(),
  /** When the sale's income becomes withdrawable (paid_at + the settlement delay); null until paid and for products without seller income. */
  settle_at: timestamp.nullable(),
  /** Whether settle_at has passed (by the API's clock): the income counts as withdrawable, no longer as unsettled. */
  settled: z.boolean(),
  first_revealed_at: timestamp.nullable(),
  /** Null unless the order is `Refund`. */
  refund_state: z.enum(REFUND_STATES).nullable(),
})
export type Order = z.infer<typeof orderSchema>

/** Where to pay a new order: Alipay → a pay page to open; WeChat Native → the code to show as a QR code. */
export const orderCreatedSchema = z.object({
  orderNo: z.string(),
  /**
   * A share order's buyer key (decision 102), given once, to this caller only, and stored hashed: the
   * browser that created the order proves with it (header `x-buyer-key`) that it is the buyer — for the
   * after-sales chat of a visitor's order, and for a reveal to count. Keep it beside the order number.
   */
  buyerKey: z.string().optional(),
  payUrl: z.string().optional(),
  qrCode: z.string().optional(),
})
export type OrderCreated = z.infer<typeof orderCreatedSchema>

/** What the waiting pages poll. */
export const paymentStatusViewSchema = z.object({
  orderNo: z.string(),
  unicode: z.string().nullable(),
  product_type: productTypeSchema,
  product_name: z.string(),
  payment_status: paymentStatusSchema,
  paymentMethod: orderPaymentMethodSchema,
  amount: z.number(),
  /** '' until paid, then the gateway's trade number. */
  third_party_trade_no: z.string(),
  expires_at: timestamp,
  /** While the order can still be paid: where to pay (the WeChat page renders it as a QR code). */
  checkout_url: z.string().nullable(),
  /**
   * The console path the buyer goes to once it is paid (or over), with the order number: the share
   * page for a share, the make-money page for a channel, the package list for a package.
   */
  return_path: z.string(),
})
export type PaymentStatusView = z.infer<typeof paymentStatusViewSchema>

export const orderRefundedSchema = z.object({ orderNo: z.string(), payment_status: z.literal('Refund'), refund_state: z.enum(REFUND_STATES) })

/** One way the content of an order was shown (decision 102), as the admin sees it. */
export const orderRevealSchema = z.object({
  order_id: z.number().int(),
  orderNo: z.string(),
  how: z.enum(REVEAL_KINDS),
  /** Shown to the buyer (its account or the browser that paid): the order counts as revealed. */
  counts: z.boolean(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  /** The console's signed visitor id of the browser, when it sent one. */
  visitor_id: z.string().nullable(),
  ip: z.string(),
  first_at: timestamp,
  last_at: timestamp,
  times: z.number().int(),
})
export type OrderReveal = z.infer<typeof orderRevealSchema>
/** The newest reveals shown (the total counts them all). */
export const REVEALS_SHOWN = 50
export const orderRevealsSchema = z.object({ list: z.array(orderRevealSchema), total: z.number().int() })

const orderList = (path: `/api/orders/${string}`, access: 'user' | 'admin', summary: string) =>
  endpoint({ method: 'GET', path, access, tag: 'orders', summary, query: orderListQuerySchema, response: pageOf(orderSchema) })

export const ordersApi = {
  create: endpoint({
    method: 'POST',
    path: '/api/orders/create',
    access: 'optional',
    tag: 'orders',
    summary: 'Create an order for a share and start its payment (visitors need no account); answers its buyer key once',
    body: orderCreateSchema,
    response: orderCreatedSchema,
  }),
  paymentStatus: endpoint({
    method: 'GET',
    path: '/api/orders/payment-status',
    access: 'public',
    tag: 'orders',
    summary: "An order's payment status; asks the gateway when the notify is late",
    query: orderNoBodySchema,
    response: paymentStatusViewSchema,
  }),
  list: orderList('/api/orders/list', 'user', "The caller's orders as a buyer, newest first"),
  sellerList: orderList('/api/orders/seller/list', 'user', "Orders of the caller's shares, newest first"),
  adminList: orderList('/api/orders/admin/list', 'admin', 'All orders, newest first'),
  adminReveals: endpoint({
    method: 'GET',
    path: '/api/orders/admin/reveals',
    access: 'admin',
    tag: 'orders',
    summary: 'Who the content of an order was shown to, how and from where, newest first; which counted as the buyer\'s',
    query: z.object({ id: idSchema }),
    response: orderRevealsSchema,
  }),
  adminRefund: endpoint({
    method: 'POST',
    path: '/api/orders/admin/refund',
    access: 'admin',
    tag: 'orders',
    summary: 'Refund a completed order in full through its gateway; on a Refund order whose refund is not confirmed, ask the gateway again',
    body: orderNoBodySchema,
    response: orderRefundedSchema,
  }),
}
