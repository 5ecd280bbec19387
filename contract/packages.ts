import { z } from 'zod'
import { endpoint, nothing, pageOf, timestamp } from './http.ts'
import { orderCreatedSchema, paymentMethodSchema } from './orders.ts'
import { priceSchema } from './shares.ts'
import { idSchema, pageQuerySchema } from './users.ts'

/** SPEC §4 Package status: on sale or off shelf. */
export const PACKAGE_STATUSES = ['on_sale', 'off_shelf'] as const
export type PackageStatus = (typeof PACKAGE_STATUSES)[number]

export const PACKAGE_NAME_MAX = 50
/** Free unlocks a day (SPEC §3 download_limit) and days of service (duration_days): whole numbers in these ranges. */
export const DOWNLOAD_LIMIT_MAX = 1000
export const DURATION_DAYS_MAX = 3650

/** A whole number 1–max, as a JSON number or as digits from a form; `key` is the one message for anything else. */
const wholeIn = (max: number, key: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, key)], { error: key })
    .transform(Number)
    .pipe(z.number().int(key).min(1, key).max(max, key))

/** SPEC §3 Package fields as an admin writes them; the price in yuan (¥0.01–¥10,000, ≤ 2 decimals). */
const packageFields = {
  name: z
    .string({ error: 'subscriptions.validation.nameRequired' })
    .trim()
    .min(1, 'subscriptions.validation.nameRequired')
    .max(PACKAGE_NAME_MAX, 'subscriptions.validation.nameMax'),
  download_limit: wholeIn(DOWNLOAD_LIMIT_MAX, 'subscriptions.validation.downloadLimit'),
  price: priceSchema,
  duration_days: wholeIn(DURATION_DAYS_MAX, 'subscriptions.validation.durationDays'),
  status: z.enum(PACKAGE_STATUSES, { error: 'subscriptions.validation.status' }),
}

export const packageCreateSchema = z.object({ ...packageFields, status: packageFields.status.default('on_sale') })

/** An edit: the fields given change (a status alone puts a package on sale or off shelf). */
export const packageUpdateSchema = z.object({
  id: idSchema,
  name: packageFields.name.optional(),
  download_limit: packageFields.download_limit.optional(),
  price: packageFields.price.optional(),
  duration_days: packageFields.duration_days.optional(),
  status: packageFields.status.optional(),
})

export const packageBuySchema = z.object({ id: idSchema, paymentMethod: paymentMethodSchema })

export const adminPackageListQuerySchema = pageQuerySchema.extend({
  status: z.enum(PACKAGE_STATUSES).optional(),
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})

/** SPEC §3 Package as a buyer sees it. */
export const packageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  download_limit: z.number().int(),
  price: z.number(),
  duration_days: z.number().int(),
  status: z.enum(PACKAGE_STATUSES),
  created_at: timestamp,
})
export type Package = z.infer<typeof packageSchema>

/** The admin's view: with how many users subscribed (ever) and how many subscriptions are open now. */
export const adminPackageSchema = packageSchema.extend({
  subscription_count: z.number().int(),
  opened_count: z.number().int(),
  updated_at: timestamp,
})
export type AdminPackage = z.infer<typeof adminPackageSchema>

const idQuerySchema = z.object({ id: idSchema })

/** Packages (SPEC §2 /subscription-manage/package-list, /system/package-list; DESIGN §3 Packages). */
export const packagesApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/packages/list',
    access: 'user',
    tag: 'packages',
    summary: 'The packages on sale, cheapest first',
    query: pageQuerySchema,
    response: pageOf(packageSchema),
  }),
  buy: endpoint({
    method: 'POST',
    path: '/api/packages/buy',
    access: 'user',
    tag: 'packages',
    summary: 'Create an order for a package on sale and start its payment; paying opens or extends the subscription',
    body: packageBuySchema,
    response: orderCreatedSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/packages/admin/list',
    access: 'admin',
    tag: 'packages',
    summary: 'Every package, newest first, with its subscription counts',
    query: adminPackageListQuerySchema,
    response: pageOf(adminPackageSchema),
  }),
  adminCreate: endpoint({
    method: 'POST',
    path: '/api/packages/admin/create',
    access: 'admin',
    tag: 'packages',
    summary: 'Create a package (on sale unless told otherwise)',
    body: packageCreateSchema,
    response: adminPackageSchema,
  }),
  adminUpdate: endpoint({
    method: 'POST',
    path: '/api/packages/admin/update',
    access: 'admin',
    tag: 'packages',
    summary: 'Edit a package, or put it on sale / off shelf; open subscriptions keep their expiry',
    body: packageUpdateSchema,
    response: adminPackageSchema,
  }),
  adminDelete: endpoint({
    method: 'GET',
    path: '/api/packages/admin/delete',
    access: 'admin',
    tag: 'packages',
    summary: 'Delete a package nobody ever ordered; one with subscribers or orders is refused (take it off shelf)',
    query: idQuerySchema,
    response: nothing,
  }),
}
