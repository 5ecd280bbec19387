import { z } from 'zod'
import { endpoint, timestamp } from './http.ts'
import { BATCH_MAX } from './batch.ts'
import { incomeSummarySchema } from './income.ts'
import { orderPaymentMethodSchema, orderRevealsSchema, orderSchema } from './orders.ts'
import { publicShareSchema, SHARE_STATUSES } from './shares.ts'
import { idSchema, loginRecordSchema, userSchema } from './users.ts'

// Admin oversight of accounts (issue 9 part B): one user's admin view, and the action against a
// fraudulent seller. Its own file, because it joins users, shares, orders and income.

/** How many of each list the admin's view of one user shows (its newest); the totals are counted. */
export const USER_DETAIL_ROWS = 10

const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number().int() })

/** An admin's view of one user: the account, newest shares, orders both ways, logins, income. */
export const userDetailSchema = z.object({
  user: userSchema,
  shares: listOf(publicShareSchema),
  buyerOrders: listOf(orderSchema),
  sellerOrders: listOf(orderSchema),
  loginRecords: listOf(loginRecordSchema),
  income: incomeSummarySchema,
})
export type UserDetail = z.infer<typeof userDetailSchema>

/** How many orders the preview lists by name (all of them are counted, summed and refunded). */
export const FRAUD_PREVIEW_ROWS = 200

export const FRAUD_ACTION_STATES = ['running', 'interrupted', 'done'] as const

/** The last run of "ban seller and refund buyers" on this seller, if any. */
const fraudRunSchema = z.object({
  state: z.enum(FRAUD_ACTION_STATES),
  refunded_count: z.number().int(),
  refunded_total: z.number(),
  last_error: z.string().nullable(),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
})

/** What "ban seller and refund buyers" will do (decision 067), before it is done. */
export const fraudPreviewSchema = z.object({
  seller: z.object({ id: z.number().int(), user_name: z.string(), is_banned: z.literal([0, 1]), role: userSchema.shape.role }),
  window_days: z.number().int(),
  /** Orders paid at or after this instant are in the window (fixed by the first run). */
  since: timestamp,
  /** Shares that will be taken down (status → violation). */
  shares: z.array(z.object({ id: z.number().int(), title: z.string(), unicode: z.string(), status: z.enum(SHARE_STATUSES), price: z.number() })),
  /** Paid share orders of this seller whose content was never revealed, paid within the window. */
  orders: z.array(
    z.object({
      id: z.number().int(),
      orderNo: z.string(),
      product_name: z.string(),
      amount: z.number(),
      paymentMethod: orderPaymentMethodSchema,
      username: z.string().nullable(),
      paid_at: timestamp,
    }),
  ),
  order_count: z.number().int(),
  /** The sum of their amounts, in yuan. */
  total: z.number(),
  run: fraudRunSchema.nullable(),
  /**
   * Who the content of this seller's sales in the window was shown to, newest first (decision 102):
   * only the buyer's own reveals (`counts`) keep an order out of the refund; the seller's, an admin's
   * or an order number's alone are listed and change nothing.
   */
  reveals: orderRevealsSchema,
})
export type FraudPreview = z.infer<typeof fraudPreviewSchema>

export const fraudActionBodySchema = z.object({
  id: idSchema,
  /** The admin saw the preview: must be exactly true. */
  confirm: z.literal(true, { error: 'oversight.validation.confirm' }),
})

export const fraudResultSchema = z.object({
  /** Whether this run banned the account (false: it was banned already). */
  banned: z.boolean(),
  shares_taken_down: z.number().int(),
  /** Orders this run refunded (a repeated run refunds none twice). */
  refunded: z.array(z.object({ orderNo: z.string(), amount: z.number(), refund_state: z.enum(['pending', 'done', 'failed']) })),
  run: fraudRunSchema,
})
export type FraudResult = z.infer<typeof fraudResultSchema>

/**
 * What an admin weighs beside a queue item (decision 125): the seller's refunded sales, the reports
 * against their shares, take-downs so far, shares banned as violations, and whether the account is banned.
 */
export const sellerHistorySchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  is_banned: z.literal([0, 1]),
  refunds: z.number().int(),
  reports: z.number().int(),
  takedowns: z.number().int(),
  banned_shares: z.number().int(),
})
export type SellerHistory = z.infer<typeof sellerHistorySchema>

export const sellerHistoryQuerySchema = z.object({
  /** User names, comma-separated (the names a queue page shows). */
  names: z
    .string()
    .transform((v) => [...new Set(v.split(',').map((n) => n.trim()).filter(Boolean))])
    .pipe(z.array(z.string().max(64)).min(1, 'validation.batchIds').max(BATCH_MAX, 'validation.batchTooMany')),
})

export const oversightApi = {
  sellerHistory: endpoint({
    method: 'GET',
    path: '/api/users/admin/seller-history',
    access: 'admin',
    tag: 'users',
    summary: "Sellers' records for the admin queues: refunds, reports, take-downs, banned shares, account banned",
    query: sellerHistoryQuerySchema,
    response: z.object({ list: z.array(sellerHistorySchema) }),
  }),
  userDetail: endpoint({
    method: 'GET',
    path: '/api/users/admin/detail',
    access: 'admin',
    tag: 'users',
    summary: 'One account with its newest shares, orders (as buyer and as seller), logins and income',
    query: z.object({ id: idSchema }),
    response: userDetailSchema,
  }),
  fraudPreview: endpoint({
    method: 'GET',
    path: '/api/users/admin/fraud-preview',
    access: 'admin',
    tag: 'users',
    summary: 'What "ban seller and refund buyers" would do: shares taken down, orders refunded, the total',
    query: z.object({ id: idSchema }),
    response: fraudPreviewSchema,
  }),
  /** Idempotent and resumable (decision 067): a repeat refunds nothing twice, a crashed run is finished. */
  fraudAction: endpoint({
    method: 'POST',
    path: '/api/users/admin/fraud-action',
    access: 'admin',
    tag: 'users',
    summary: 'Ban the seller, take their shares down and refund their unrevealed sales in the window',
    body: fraudActionBodySchema,
    response: fraudResultSchema,
  }),
}
