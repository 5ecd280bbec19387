import { z } from 'zod'
import { isYuanAmount } from './money.ts'
import { idSchema, pageQuerySchema } from './users.ts'
import { orderNoSchema, unicodeSchema } from './codes.ts'
import type { PaymentStatus } from './orders.ts'

export const SHARE_TYPES = ['text', 'url', 'netdisk'] as const
export type ShareType = (typeof SHARE_TYPES)[number]
/** DESIGN §3 share status machine. */
export const SHARE_STATUSES = ['under_review', 'approved', 'reported_invalid', 'violation'] as const
export type ShareStatus = (typeof SHARE_STATUSES)[number]
export const SUBSCRIPTION_STATUSES = ['open', 'close'] as const
// The order parts live in orders.ts (issue 6); re-exported here until every importer has moved.
export { ORDER_NO_PATTERN, orderCreateSchema, orderListQuerySchema, orderNoSchema, PAYMENT_METHODS, PAYMENT_STATUSES } from './orders.ts'
export type { Order, PaymentMethod, PaymentStatus } from './orders.ts'
export { UNICODE_ALPHABET, UNICODE_LENGTH, UNICODE_PATTERN, unicodeSchema } from './codes.ts'

export const PRICE_MIN_YUAN = 0.01
export const PRICE_MAX_YUAN = 10000
export const TITLE_MAX = 100
export const CONTENT_MAX = 5000
export const URL_MAX = 2000
export const EXTRACTION_CODE_MAX = 16


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

export const SHARE_SORTS = ['created_at', 'price', 'visit_count', 'purchase_count'] as const

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

export const shareLookupQuerySchema = z
  .object({ unicode: unicodeSchema.optional(), third_party_trade_no: orderNoSchema.optional() })
  .refine((v) => Boolean(v.unicode) !== Boolean(v.third_party_trade_no), { message: 'validation.shareLookup', path: ['unicode'] })

/** The public view of a share: never the content. */
export type PublicShare = {
  id: number
  unicode: string
  title: string
  type: ShareType
  price: number
  user_name: string
  visit_count: number
  purchase_count: number
  status: ShareStatus
  subscription_status: (typeof SUBSCRIPTION_STATUSES)[number]
  created_at: string
  /** Only when the caller may see it: owner, admin, or a buyer with a completed order. */
  content?: string
  extraction_code?: string | null
  /** With `third_party_trade_no` lookups: '' until paid, then the gateway's trade number. */
  third_party_trade_no?: string
  payment_status?: PaymentStatus
  /** False when the seller is banned or the share deleted: shown but not for sale. */
  for_sale?: boolean
}

export type OwnShare = PublicShare & { content: string; extraction_code: string | null }
