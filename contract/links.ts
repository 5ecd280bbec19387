import { z } from 'zod'
import { orderNoSchema } from './codes.ts'
import { endpoint, pageOf, timestamp } from './http.ts'
import { idSchema, pageQuerySchema } from './users.ts'
import { DEAD_LINK_REFUND_STATES, LINK_RESULTS, LINK_STATES, LINK_TRIGGERS } from './values/links.ts'

export * from './values/links.ts'

/** Where a share's link stands (issue 25): its state, why, the last check, and whether sales are stopped. */
export const linkSummarySchema = z.object({
  state: z.enum(LINK_STATES),
  reason: z.string().nullable(),
  checked_at: timestamp.nullable(),
  dead_streak: z.number().int(),
  /** When the second strike stopped the sales and the seller was told; null while selling. */
  stopped_at: timestamp.nullable(),
})
export type LinkSummary = z.infer<typeof linkSummarySchema>

/** What the buyer of a dead link sees: when the seller was told, and its refund. */
export const deadLinkNoticeSchema = z.object({
  seller_told_at: timestamp,
  order_no: z.string(),
  /** `available`: the buyer may ask; then requested → refunded (or cancelled when the link was fixed first). */
  refund: z.enum(['available', ...DEAD_LINK_REFUND_STATES]),
  /** When a requested refund is made automatically unless the seller fixes the link first. */
  refund_due_at: timestamp,
})
export type DeadLinkNotice = z.infer<typeof deadLinkNoticeSchema>

/** One check of a link. */
export const linkCheckSchema = z.object({
  id: z.number().int(),
  share_id: z.number().int(),
  result: z.enum(LINK_RESULTS),
  reason: z.string().nullable(),
  http_status: z.number().int().nullable(),
  trigger: z.enum(LINK_TRIGGERS),
  duration_ms: z.number().int(),
  checked_at: timestamp,
})
export type LinkCheck = z.infer<typeof linkCheckSchema>

/** "Check now": the new result and where the link stands after it. */
export const linkCheckNowSchema = z.object({ check: linkCheckSchema, link: linkSummarySchema, for_sale: z.boolean() })

/** A row of the admin's Dead links page: the share, its seller and host, and its link's state. */
export const linkRowSchema = z.object({
  share_id: z.number().int(),
  unicode: z.string(),
  title: z.string(),
  user_name: z.string(),
  seller_id: z.number().int(),
  host: z.string(),
  link: linkSummarySchema,
  next_check_at: timestamp,
  checks: z.number().int(),
  dead_checks: z.number().int(),
})
export type LinkRow = z.infer<typeof linkRowSchema>

const text = (max: number) => z.string().trim().max(max, 'validation.tooLong')

export const adminLinkListQuerySchema = pageQuerySchema.extend({
  state: z.enum([...LINK_STATES, 'stopped'], { error: 'validation.choice' }).optional(),
  seller: text(64).optional(),
  host: text(253).optional(),
})

export const deadLinkRefundSchema = z.object({ orderNo: orderNoSchema })

/** A seller's dead-link rate: dead checks among all checks of its links. */
export const sellerLinkRateSchema = z.object({ checks: z.number().int(), dead_checks: z.number().int(), rate: z.number(), dead_links: z.number().int(), links: z.number().int() })
export type SellerLinkRate = z.infer<typeof sellerLinkRateSchema>

/** A row of the statistics' dead-link rates by seller. */
export const sellerLinkRateRowSchema = sellerLinkRateSchema.extend({ seller_id: z.number().int(), user_name: z.string() })
export type SellerLinkRateRow = z.infer<typeof sellerLinkRateRowSchema>

export const linksApi = {
  checkNow: endpoint({
    method: 'POST',
    path: '/api/shares/admin/check-link',
    access: 'admin',
    tag: 'links',
    summary: 'Checks a url or netdisk share link now and answers the new result (issue 25)',
    body: z.object({ id: idSchema }),
    response: linkCheckNowSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/shares/admin/links',
    access: 'admin',
    tag: 'links',
    summary: 'Checked links, filtered by state (or stopped), seller and host; dead and stopped first',
    query: adminLinkListQuerySchema,
    response: pageOf(linkRowSchema),
  }),
  history: endpoint({
    method: 'GET',
    path: '/api/shares/admin/link-history',
    access: 'admin',
    tag: 'links',
    summary: "A share's link checks, newest first (the last 50)",
    query: z.object({ id: idSchema }),
    response: z.object({ list: z.array(linkCheckSchema) }),
  }),
  sellerRate: endpoint({
    method: 'GET',
    path: '/api/shares/admin/link-rate',
    access: 'admin',
    tag: 'links',
    summary: "A seller's dead-link rate: dead checks among its links' checks",
    query: z.object({ user_id: idSchema }),
    response: sellerLinkRateSchema,
  }),
  sellerRates: endpoint({
    method: 'GET',
    path: '/api/shares/admin/link-rates',
    access: 'admin',
    tag: 'links',
    summary: 'The sellers with the highest dead-link rates (statistics): dead checks among their links\' checks, the 20 highest',
    response: z.object({ list: z.array(sellerLinkRateRowSchema) }),
  }),
  refund: endpoint({
    method: 'POST',
    path: '/api/share/dead-link-refund',
    access: 'optional',
    tag: 'links',
    summary: "The buyer's refund request for a dead link (its account or the browser that paid): refunded at once past the fix window",
    body: deadLinkRefundSchema,
    response: deadLinkNoticeSchema,
  }),
}
