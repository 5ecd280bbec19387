import { z } from 'zod'
import { unicodeSchema } from './codes.ts'
import { endpoint, pageOf, timestamp } from './http.ts'
import { publicShareSchema } from './shares.ts'
import { pageQuerySchema } from './users.ts'

/** SPEC §4 subscription service tags: opened until it expires, then expired. */
export const SUBSCRIPTION_TAGS = ['opened', 'expired'] as const
export type SubscriptionTag = (typeof SUBSCRIPTION_TAGS)[number]

/** The tag of a subscription at `now`. */
export const subscriptionTag = (expiresAt: Date, now: Date): SubscriptionTag => (expiresAt > now ? 'opened' : 'expired')

/** A subscription as its owner and the admins see it (SPEC §3 Package: user_name, product_name, created time). */
export const subscriptionSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  package_id: z.number().int(),
  /** The package's name. */
  product_name: z.string(),
  download_limit: z.number().int(),
  status: z.enum(SUBSCRIPTION_TAGS),
  created_at: timestamp,
  /** When the current period began (a renewal after expiry starts a new one). */
  starts_at: timestamp,
  expires_at: timestamp,
})
export type Subscription = z.infer<typeof subscriptionSchema>

/**
 * Today's free unlocks (Asia/Shanghai day): the highest daily limit among the open subscriptions, less
 * the unlocks made today (decision 054). All zero without an open subscription.
 */
export const unlockAllowanceSchema = z.object({
  daily_limit: z.number().int(),
  used_today: z.number().int(),
  remaining_today: z.number().int(),
})
export type UnlockAllowance = z.infer<typeof unlockAllowanceSchema>

/** My subscriptions, each with what it leaves today, and today's allowance of all of them together. */
export const mySubscriptionSchema = subscriptionSchema.extend({ remaining_today: z.number().int() })
export const mySubscriptionPageSchema = pageOf(mySubscriptionSchema).extend(unlockAllowanceSchema.shape)

export const subscriptionListQuerySchema = pageQuerySchema.extend({ status: z.enum(SUBSCRIPTION_TAGS).optional() })
export const adminSubscriptionListQuerySchema = subscriptionListQuerySchema.extend({
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})

export const unlockSchema = z.object({ unicode: unicodeSchema })

/** The unlocked share with its content, the zero-amount order listing it, and what is left today. */
export const unlockedShareSchema = publicShareSchema.extend({
  content: z.string(),
  extraction_code: z.string().nullable(),
  orderNo: z.string(),
  /** True when this share was already the caller's (unlocked or bought before): nothing was used. */
  already: z.boolean(),
  remaining_today: z.number().int(),
})
export type UnlockedShare = z.infer<typeof unlockedShareSchema>

/** Subscriptions (SPEC §2 /subscription-manage/subscription-list; DESIGN §3 Packages and subscriptions). */
export const subscriptionsApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/subscriptions/list',
    access: 'user',
    tag: 'subscriptions',
    summary: "The caller's subscriptions (open ones first) with today's remaining free unlocks",
    query: subscriptionListQuerySchema,
    response: mySubscriptionPageSchema,
  }),
  unlock: endpoint({
    method: 'POST',
    path: '/api/subscriptions/unlock',
    access: 'user',
    tag: 'subscriptions',
    summary: "Unlock a share open to subscribers with one of today's free unlocks; the same share again uses none",
    body: unlockSchema,
    response: unlockedShareSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/subscriptions/admin/list',
    access: 'admin',
    tag: 'subscriptions',
    summary: 'Every subscription, newest first',
    query: adminSubscriptionListQuerySchema,
    response: pageOf(subscriptionSchema),
  }),
}
