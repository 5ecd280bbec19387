import { z } from 'zod'
import { endpoint, pageOf, timestamp } from './http.ts'
import { isYuanAmount } from './money.ts'
import { idSchema, pageQuerySchema } from './users.ts'
import { batchIdsSchema, batchResultSchema } from './batch.ts'

/** SPEC §4 Withdrawal status. */
export const WITHDRAWAL_STATUSES = ['Pending', 'Completed', 'Failed'] as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number]
export const withdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES)

/** How the console shows a withdrawal status: its badge colour and its catalog key. */
export const WITHDRAWAL_STATUS_VIEW = {
  Pending: { color: 'blue', label: 'withdrawals.statuses.Pending' },
  Completed: { color: 'green', label: 'withdrawals.statuses.Completed' },
  Failed: { color: 'red', label: 'withdrawals.statuses.Failed' },
} as const satisfies Record<WithdrawalStatus, { color: string; label: `withdrawals.statuses.${WithdrawalStatus}` }>

/** How a withdrawal was paid out: the admin's own transfer, or Alipay's fund.trans.uni.transfer. */
export const PAYOUT_METHODS = ['manual', 'alipay'] as const

/**
 * The largest amount one request may name (decision 048): far above any seller's income, and below
 * what the database's integer fen column and Alipay's single transfer (¥100,000,000) hold.
 */
export const WITHDRAWAL_MAX_YUAN = 10_000_000

/**
 * A withdrawal amount in yuan (DESIGN §3 Withdrawal): a JSON number or decimal digits from a form,
 * greater than 0, at most two decimals. The minimum, the fee and the withdrawable income are the
 * server's rules (they depend on its settings and the seller's ledger).
 */
export const withdrawalAmountSchema = z
  .union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/, 'withdrawals.amountFormat')], { error: 'withdrawals.amountFormat' })
  .pipe(z.coerce.number())
  // One message per amount: the first rule it breaks.
  .refine(Number.isFinite, { error: 'withdrawals.amountFormat', abort: true })
  .refine((v) => v > 0, { error: 'withdrawals.amountPositive', abort: true })
  .refine((v) => v <= WITHDRAWAL_MAX_YUAN, { error: 'withdrawals.amountTooLarge', abort: true })
  .refine(isYuanAmount, 'withdrawals.amountDecimals')

export const withdrawalCreateSchema = z.object({ amount: withdrawalAmountSchema })

/** The transfer order number an admin enters (SPEC §4): what their bank or Alipay shows for the transfer. */
export const TRANSACTION_ORDER_MAX = 64
export const transactionOrderSchema = z
  .string({ error: 'withdrawals.transactionOrderRequired' })
  .trim()
  .min(1, { error: 'withdrawals.transactionOrderRequired', abort: true })
  .max(TRANSACTION_ORDER_MAX, { error: 'withdrawals.transactionOrderFormat', abort: true })
  .regex(/^[0-9A-Za-z_-]+$/, 'withdrawals.transactionOrderFormat')

export const REJECT_REASON_MAX = 200
export const rejectReasonSchema = z
  .string({ error: 'withdrawals.reasonRequired' })
  .trim()
  .min(1, { error: 'withdrawals.reasonRequired', abort: true })
  .max(REJECT_REASON_MAX, 'withdrawals.reasonTooLong')

export const withdrawalProcessSchema = z.object({ id: idSchema, transaction_order: transactionOrderSchema })
export const withdrawalRejectSchema = z.object({ id: idSchema, reason: rejectReasonSchema })
export const withdrawalIdSchema = z.object({ id: idSchema })
/**
 * Several withdrawals marked paid with one transfer order number (a batch transfer's number, decision
 * 125) or rejected with one reason.
 */
export const withdrawalBatchProcessSchema = z.object({ ids: batchIdsSchema, transaction_order: transactionOrderSchema })
export const withdrawalBatchRejectSchema = z.object({ ids: batchIdsSchema, reason: rejectReasonSchema })

export const withdrawalListQuerySchema = pageQuerySchema.extend({
  status: withdrawalStatusSchema.optional(),
})

export const adminWithdrawalListQuerySchema = withdrawalListQuerySchema.extend({
  /** The seller's user name (part of it), or their Alipay account or real name. */
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
  /** Asia/Shanghai days of the application time, inclusive. */
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
})

/**
 * SPEC §3 Withdrawal; amounts in yuan. `application_time` and `created_at` are the same instant (SPEC
 * names both). `failure_reason` is set when the withdrawal Failed (the admin's reason); `payout_error`
 * (admin lists only) is the last refused or unconfirmed Alipay payout of a Pending one.
 */
export const withdrawalSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  withdrawalAmount: z.number(),
  withdrawalServiceFee: z.number(),
  actualWithdrawalAmount: z.number(),
  alipayAccount: z.string(),
  alipayRealName: z.string(),
  status: withdrawalStatusSchema,
  application_time: timestamp,
  processing_time: timestamp.nullable(),
  transaction_order: z.string().nullable(),
  payout_method: z.enum(PAYOUT_METHODS).nullable(),
  failure_reason: z.string().nullable(),
  payout_error: z.string().nullable(),
  created_at: timestamp,
})
export type Withdrawal = z.infer<typeof withdrawalSchema>

/**
 * What a withdrawal of `amount` would be (the figures the form shows before submitting), with the
 * seller's withdrawable income and the settings. Without `amount` only the income and settings.
 * `refusal` is the msg key the create call would answer with now (null: it would be accepted).
 */
export const withdrawalPreviewSchema = z.object({
  withdrawalAmount: z.number().nullable(),
  withdrawalServiceFee: z.number().nullable(),
  actualWithdrawalAmount: z.number().nullable(),
  withdrawable: z.number(),
  minimum: z.number(),
  /** The service fee rate in basis points (100 = 1%) and its minimum in yuan. */
  feeRateBp: z.number().int(),
  feeMinimum: z.number(),
  refusal: z.string().nullable(),
})
export type WithdrawalPreview = z.infer<typeof withdrawalPreviewSchema>

/** The admin queue: the page, and whether payouts through Alipay are configured (the button is offered). */
export const adminWithdrawalPageSchema = pageOf(withdrawalSchema).extend({ alipayPayout: z.boolean() })

export const withdrawalsApi = {
  create: endpoint({
    method: 'POST',
    path: '/api/withdrawals/create',
    access: 'user',
    tag: 'withdrawals',
    summary: "Withdraw part of the caller's withdrawable income to their Alipay account (debited at once, Pending until an admin pays it)",
    body: withdrawalCreateSchema,
    response: withdrawalSchema,
  }),
  preview: endpoint({
    method: 'GET',
    path: '/api/withdrawals/preview',
    access: 'user',
    tag: 'withdrawals',
    summary: 'The fee and actual amount of a withdrawal before it is requested, with the withdrawable income',
    query: z.object({ amount: withdrawalAmountSchema.optional() }),
    response: withdrawalPreviewSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/withdrawals/list',
    access: 'user',
    tag: 'withdrawals',
    summary: "The caller's withdrawals, newest first",
    query: withdrawalListQuerySchema,
    response: pageOf(withdrawalSchema),
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/withdrawals/admin/list',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Every withdrawal, newest first, by status, seller and application day',
    query: adminWithdrawalListQuerySchema,
    response: adminWithdrawalPageSchema,
  }),
  adminProcess: endpoint({
    method: 'POST',
    path: '/api/withdrawals/admin/process',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Record the transfer an admin made for a Pending withdrawal (→ Completed)',
    body: withdrawalProcessSchema,
    response: withdrawalSchema,
  }),
  adminReject: endpoint({
    method: 'POST',
    path: '/api/withdrawals/admin/reject',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Reject a Pending withdrawal with a reason (→ Failed, the amount credited back)',
    body: withdrawalRejectSchema,
    response: withdrawalSchema,
  }),
  adminPayout: endpoint({
    method: 'POST',
    path: '/api/withdrawals/admin/payout',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Pay a Pending withdrawal out through Alipay (fund.trans.uni.transfer; only when configured)',
    body: withdrawalIdSchema,
    response: withdrawalSchema,
  }),
  adminBatchProcess: endpoint({
    method: 'POST',
    path: '/api/withdrawals/admin/batch-process',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Mark several Pending withdrawals paid with one transfer order number, each as /process would; a result per withdrawal',
    body: withdrawalBatchProcessSchema,
    response: batchResultSchema,
  }),
  adminBatchReject: endpoint({
    method: 'POST',
    path: '/api/withdrawals/admin/batch-reject',
    access: 'admin',
    tag: 'withdrawals',
    summary: 'Reject several Pending withdrawals with one reason, each as /reject would; a result per withdrawal',
    body: withdrawalBatchRejectSchema,
    response: batchResultSchema,
  }),
}
