import { z } from 'zod'
import { deadLinkNoticeSchema, linkSummarySchema } from './links.ts'
import { endpoint, nothing, pageOf, timestamp } from './http.ts'
import { isYuanAmount } from './money.ts'
import { idSchema, pageQuerySchema } from './users.ts'
import { orderNoSchema, unicodeSchema } from './codes.ts'
import { batchIdsSchema, batchResultSchema, idListQuerySchema } from './batch.ts'
import { PAYMENT_STATUSES } from './orders.ts'

export * from './values/shares.ts'
import { CONTENT_MAX, EXTRACTION_CODE_MAX, PRICE_MAX_YUAN, PRICE_MIN_YUAN, SHARE_ADMIN_MOVES, type ShareAdminMove, SHARE_SORTS, SHARE_STATUSES, SHARE_TYPES, SUBSCRIPTION_STATUSES, TITLE_MAX, URL_MAX, type ShareType } from './values/shares.ts'

/** A price in yuan with at most two decimals, ¥0.01–¥10,000 (issue: shares). */
export const priceSchema = z
  // A JSON number or decimal digits from a form; never a boolean, null or array coerced to a number.
  .union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/, 'validation.priceNumber')], { error: 'validation.priceNumber' })
  .pipe(z.coerce.number())
  .refine(Number.isFinite, 'validation.priceNumber')
  .refine((v) => v >= PRICE_MIN_YUAN && v <= PRICE_MAX_YUAN, 'validation.priceRange')
  .refine(isYuanAmount, 'validation.priceDecimals')

export const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v)
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname)
  } catch {
    return false
  }
}

const shareFields = {
  title: z.string({ error: 'validation.titleRequired' }).trim().min(1, 'validation.titleRequired').max(TITLE_MAX, 'validation.titleMax'),
  type: z.enum(SHARE_TYPES, { error: 'validation.shareType' }),
  content: z.string({ error: 'validation.contentRequired' }).trim().min(1, 'validation.contentRequired').max(CONTENT_MAX, 'validation.contentMax'),
  extraction_code: z
    .string()
    .trim()
    .max(EXTRACTION_CODE_MAX, 'validation.extractionCode')
    .regex(/^[A-Za-z0-9]*$/, 'validation.extractionCode')
    .optional(),
  price: priceSchema,
  subscription_status: z.enum(SUBSCRIPTION_STATUSES, { error: 'validation.subscriptionStatus' }).default('close'),
}

/** url and netdisk content must be an http(s) link (issue: shares). */
function linkRule<T extends { type?: ShareType; content?: string }>(v: T, ctx: z.RefinementCtx) {
  if ((v.type === 'url' || v.type === 'netdisk') && v.content !== undefined) {
    if (v.content.length > URL_MAX || !isHttpUrl(v.content)) ctx.addIssue({ code: 'custom', path: ['content'], message: 'validation.contentUrl' })
  }
}

export const shareCreateSchema = z.object(shareFields).superRefine(linkRule)
export type ShareCreateInput = z.infer<typeof shareCreateSchema>

export const shareUpdateSchema = z
  .object({
    id: idSchema,
    title: shareFields.title.optional(),
    type: shareFields.type.optional(),
    content: shareFields.content.optional(),
    extraction_code: shareFields.extraction_code,
    price: priceSchema.optional(),
    subscription_status: z.enum(SUBSCRIPTION_STATUSES, { error: 'validation.subscriptionStatus' }).optional(),
  })
  .superRefine(linkRule)

export const shareListQuerySchema = pageQuerySchema.extend({
  title: z.string().trim().max(TITLE_MAX, 'validation.tooLong').optional(),
  type: z.enum(SHARE_TYPES).optional(),
  status: z.enum(SHARE_STATUSES).optional(),
  sort: z.enum(SHARE_SORTS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
})

export const adminShareListQuerySchema = shareListQuerySchema.extend({
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})

export const adminShareUpdateSchema = z.object({
  id: idSchema,
  status: z.enum(SHARE_STATUSES, { error: 'validation.shareStatus' }).optional(),
  title: shareFields.title.optional(),
  price: priceSchema.optional(),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES).optional(),
})

/** A share's content as an admin reviews it in a queue, with its seller (decision 125). */
export const shareContentSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  type: z.enum(SHARE_TYPES),
  content: z.string(),
  extraction_code: z.string().nullable(),
})
export type ShareContent = z.infer<typeof shareContentSchema>

/** One status move on several shares (decision 125). */
export const adminShareBatchSchema = z.object({
  ids: batchIdsSchema,
  move: z.custom<ShareAdminMove>((v) => typeof v === 'string' && Object.hasOwn(SHARE_ADMIN_MOVES, v), { error: 'validation.shareStatus' }),
})

export const shareLookupQuerySchema = z
  .object({ unicode: unicodeSchema.optional(), third_party_trade_no: orderNoSchema.optional() })
  .refine((v) => Boolean(v.unicode) !== Boolean(v.third_party_trade_no), { message: 'validation.shareLookup', path: ['unicode'] })

/** SPEC §3 Share, as the API presents it: never the content unless the caller may read it. */
export const publicShareSchema = z.object({
  id: z.number().int(),
  unicode: z.string(),
  title: z.string(),
  type: z.enum(SHARE_TYPES),
  price: z.number(),
  user_name: z.string(),
  visit_count: z.number().int(),
  purchase_count: z.number().int(),
  status: z.enum(SHARE_STATUSES),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  created_at: timestamp,
  /** Only when the caller may see it: owner, admin, or a buyer with a completed order. */
  content: z.string().optional(),
  extraction_code: z.string().nullable().optional(),
  /** With `third_party_trade_no` lookups: '' until paid, then the gateway's trade number. */
  third_party_trade_no: z.string().optional(),
  /**
   * For a signed-in buyer reading by code a share it bought: its own order's number — how the console
   * reaches that order's after-sales chat through the account (decision 102).
   */
  buyer_order_no: z.string().optional(),
  payment_status: z.enum(PAYMENT_STATUSES).optional(),
  /** False when the share is not approved, deleted or its seller banned: shown but not for sale. */
  for_sale: z.boolean().optional(),
  /**
   * For a signed-in subscriber who does not have the content yet, on a share open to subscribers and
   * for sale: the free unlocks left today (0 when used up). Absent otherwise.
   */
  free_unlocks_left: z.number().int().optional(),
  /** A url or netdisk share whose link is dead twice in a row (issue 25): not for sale while the seller fixes it. */
  link_fixing: z.boolean().optional(),
  /** The owner's and the admins' lists: the link's state and its last check (url and netdisk shares). */
  link: linkSummarySchema.nullable().optional(),
  /**
   * For the buyer of an order paid within DEAD_LINK_REFUND_DAYS while the link is known dead: when the
   * seller was told, and where its refund request stands (`available`: not asked yet).
   */
  dead_link: deadLinkNoticeSchema.optional(),
})
export type PublicShare = z.infer<typeof publicShareSchema>

/** The owner's view (edit form, after an update): with the content. */
export const ownShareSchema = publicShareSchema.extend({ content: z.string(), extraction_code: z.string().nullable() })
export type OwnShare = z.infer<typeof ownShareSchema>

const idQuerySchema = z.object({ id: idSchema })

/** Seller and admin share management (SPEC §7 /api/shares/*). */
export const sharesApi = {
  new: endpoint({
    method: 'POST',
    path: '/api/shares/new',
    access: 'user',
    tag: 'shares',
    summary: 'Create a share (needs a bound phone and the agreed disclaimer); it starts under review',
    body: shareCreateSchema,
    response: publicShareSchema,
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/shares/update',
    access: 'user',
    tag: 'shares',
    summary: 'Edit an own share; a change of title, type or content sends it back to review',
    body: shareUpdateSchema,
    response: ownShareSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/shares/list',
    access: 'user',
    tag: 'shares',
    summary: "The caller's shares, newest first unless sorted otherwise",
    query: shareListQuerySchema,
    response: pageOf(publicShareSchema),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/shares/detail',
    access: 'user',
    tag: 'shares',
    summary: 'An own share with its content (the edit view)',
    query: idQuerySchema,
    response: ownShareSchema,
  }),
  delete: endpoint({
    method: 'GET',
    path: '/api/shares/delete',
    access: 'user',
    tag: 'shares',
    summary: 'Delete an own share: no new sales; buyers keep access to what they paid for',
    query: idQuerySchema,
    response: nothing,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/shares/admin/list',
    access: 'admin',
    tag: 'shares',
    summary: "Every seller's shares, newest first unless sorted otherwise",
    query: adminShareListQuerySchema,
    response: pageOf(publicShareSchema),
  }),
  adminUpdate: endpoint({
    method: 'POST',
    path: '/api/shares/admin/update',
    access: 'admin',
    tag: 'shares',
    summary: 'Review and moderate a share: status moves (SHARE_ADMIN_MOVES), title, price, subscription',
    body: adminShareUpdateSchema,
    response: publicShareSchema,
  }),
  adminContents: endpoint({
    method: 'GET',
    path: '/api/shares/admin/contents',
    access: 'admin',
    tag: 'shares',
    summary: 'The content (text or link, extraction code) of the shares a review queue shows, to decide them in place',
    query: idListQuerySchema,
    response: z.object({ list: z.array(shareContentSchema) }),
  }),
  adminBatch: endpoint({
    method: 'POST',
    path: '/api/shares/admin/batch',
    access: 'admin',
    tag: 'shares',
    summary: 'One status move (approve, take down, ban) on several shares: each in its own transaction and audit row, a result per share',
    body: adminShareBatchSchema,
    response: batchResultSchema,
  }),
}

/** The public share lookup (SPEC §4). */
export const shareApi = {
  lookup: endpoint({
    method: 'GET',
    path: '/api/share',
    access: 'optional',
    tag: 'shares',
    summary: 'A share by its code, or the share of an order by its number (with the content once paid)',
    query: shareLookupQuerySchema,
    response: publicShareSchema,
  }),
}
