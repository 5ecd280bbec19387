import { z } from 'zod'
import { endpoint, pageOf, timestamp } from './http.ts'
import { isYuanAmount } from './money.ts'
import { orderCreatedSchema, paymentMethodSchema } from './orders.ts'
import { idSchema, pageQuerySchema } from './users.ts'

/** SPEC §4 Channel status. */
export const CHANNEL_STATUSES = ['enable', 'disable'] as const
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number]

// SPEC §3 Channel fields, as an admin sets them (SPEC §9: values not shown; these bounds are ours).
export const CHANNEL_NAME_MAX = 50
export const CHANNEL_PRICE_MIN_YUAN = 0.01
export const CHANNEL_PRICE_MAX_YUAN = 100_000
export const CHANNEL_MIN_INCOME_MAX_YUAN = 10_000_000
export const CHANNEL_DURATION_MAX_DAYS = 3650

/**
 * The fee rate on the wire is a percent with at most two decimals (3.5 = 3.5 %); stored as basis
 * points (350). Exact both ways for every valid value.
 */
export const percentToBp = (percent: number): number => Math.round(percent * 100)
export const bpToPercent = (bp: number): number => bp / 100

/**
 * A decimal number from JSON or a form field (digits with an optional fraction), never a boolean, null
 * or array coerced to one; in [min, max], with at most two decimals (money in yuan, or a percent).
 */
function decimal(keys: { number: string; range: string }, min: number, max: number) {
  return z
    .union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/, keys.number)], { error: keys.number })
    .pipe(z.coerce.number())
    .refine(Number.isFinite, { error: keys.number, abort: true })
    .refine((v) => v >= min && v <= max, { error: keys.range, abort: true })
    .refine(isYuanAmount, 'channels.validation.decimals')
}

/** Whole days from JSON or a form field. */
const daysSchema = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'channels.validation.durationNumber')], { error: 'channels.validation.durationNumber' })
  .pipe(z.coerce.number())
  .refine(Number.isInteger, { error: 'channels.validation.durationNumber', abort: true })
  .refine((v) => v >= 1 && v <= CHANNEL_DURATION_MAX_DAYS, 'channels.validation.durationRange')

export const channelFields = {
  name: z
    .string({ error: 'channels.validation.nameRequired' })
    .trim()
    .min(1, 'channels.validation.nameRequired')
    .max(CHANNEL_NAME_MAX, 'channels.validation.nameMax'),
  /** Yuan, what opening it costs. */
  price: decimal({ number: 'channels.validation.priceNumber', range: 'channels.validation.priceRange' }, CHANNEL_PRICE_MIN_YUAN, CHANNEL_PRICE_MAX_YUAN),
  /** Percent of each sale, 0–100. */
  fee_rate: decimal({ number: 'channels.validation.feeRateNumber', range: 'channels.validation.feeRateRange' }, 0, 100),
  /** Yuan: last calendar month's income a seller needs to open it. */
  minimum_income: decimal(
    { number: 'channels.validation.minimumIncomeNumber', range: 'channels.validation.minimumIncomeRange' },
    0,
    CHANNEL_MIN_INCOME_MAX_YUAN,
  ),
  /** Days it applies once opened. */
  service_duration: daysSchema,
  status: z.enum(CHANNEL_STATUSES, { error: 'channels.validation.status' }),
}

export const channelCreateSchema = z.object({ ...channelFields, status: channelFields.status.default('enable') })

/** Any subset of the fields (a status toggle sends only `status`). */
export const channelUpdateSchema = z.object({
  id: idSchema,
  name: channelFields.name.optional(),
  price: channelFields.price.optional(),
  fee_rate: channelFields.fee_rate.optional(),
  minimum_income: channelFields.minimum_income.optional(),
  service_duration: channelFields.service_duration.optional(),
  status: channelFields.status.optional(),
})

/** SPEC §3 Channel, as admins see it; money in yuan, fee_rate in percent, service_duration in days. */
export const channelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.number(),
  fee_rate: z.number(),
  minimum_income: z.number(),
  service_duration: z.number().int(),
  status: z.enum(CHANNEL_STATUSES),
  /** Sellers for whom it is open right now. */
  open_sellers: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
})
export type Channel = z.infer<typeof channelSchema>

export const adminChannelListQuerySchema = pageQuerySchema.extend({
  status: z.enum(CHANNEL_STATUSES).optional(),
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})

/** A channel offered to the caller, with where the caller stands with it. */
export const channelOfferSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.number(),
  fee_rate: z.number(),
  minimum_income: z.number(),
  service_duration: z.number().int(),
  /** Whether last month's income reaches minimum_income (opening is refused otherwise). */
  eligible: z.boolean(),
  /** When the caller's time on it ends (the last of their paid periods), or null when not open. */
  open_until: timestamp.nullable(),
})
export type ChannelOffer = z.infer<typeof channelOfferSchema>

/** One paid period of a channel the caller opened (current or queued after the current one). */
export const openChannelSchema = z.object({
  channel_id: z.number().int(),
  name: z.string(),
  /** The rate it was opened at, percent. */
  fee_rate: z.number(),
  starts_at: timestamp,
  ends_at: timestamp,
})
export type OpenChannel = z.infer<typeof openChannelSchema>

/** The caller's standing: the rate of a sale paid now, and what decides the channels they may open. */
export const channelAccountSchema = z.object({
  /** Percent: the lowest rate of the open channels, else the default. */
  fee_rate: z.number(),
  default_fee_rate: z.number(),
  /** Periods not yet ended, soonest first. */
  open: z.array(openChannelSchema),
  /** yyyy-MM of the previous Asia/Shanghai calendar month. */
  last_month: z.string(),
  /** Yuan: net sale and refund income in that month. */
  last_month_income: z.number(),
})

export const channelListSchema = pageOf(channelOfferSchema).extend({ account: channelAccountSchema })
export type ChannelList = z.infer<typeof channelListSchema>

export const channelOpenSchema = z.object({ id: idSchema, paymentMethod: paymentMethodSchema })

/** How earning works, with the configured numbers (DESIGN §3 Income, Withdrawal). */
export const earningTermsSchema = z.object({
  /** Percent of a sale while no channel is open. */
  default_fee_rate: z.number(),
  /** Hours a sale's income stays unsettled before it is withdrawable. */
  settlement_delay_hours: z.number(),
  /** Yuan. */
  withdrawal_minimum: z.number(),
  /** Percent of a withdrawal. */
  withdrawal_fee_rate: z.number(),
  /** Yuan: the lowest withdrawal fee. */
  withdrawal_fee_minimum: z.number(),
})
export type EarningTerms = z.infer<typeof earningTermsSchema>

/** Fee channels (SPEC §3 Channel; issue 7): offered on the make-money page, managed by admins. */
export const channelsApi = {
  terms: endpoint({
    method: 'GET',
    path: '/api/channels/terms',
    access: 'user',
    tag: 'channels',
    summary: 'How earning works: default fee rate, settlement delay, withdrawal minimum and fee',
    response: earningTermsSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/channels/list',
    access: 'user',
    tag: 'channels',
    summary: "Enabled channels, and the caller's open channels, current fee rate and last month's income",
    query: pageQuerySchema,
    response: channelListSchema,
  }),
  open: endpoint({
    method: 'POST',
    path: '/api/channels/open',
    access: 'user',
    tag: 'channels',
    summary: "Open a channel: an order for its price through the payment pipeline (needs last month's minimum income)",
    body: channelOpenSchema,
    response: orderCreatedSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/channels/admin/list',
    access: 'admin',
    tag: 'channels',
    summary: 'Every channel, newest first',
    query: adminChannelListQuerySchema,
    response: pageOf(channelSchema),
  }),
  adminCreate: endpoint({
    method: 'POST',
    path: '/api/channels/admin/create',
    access: 'admin',
    tag: 'channels',
    summary: 'Create a channel',
    body: channelCreateSchema,
    response: channelSchema,
  }),
  adminUpdate: endpoint({
    method: 'POST',
    path: '/api/channels/admin/update',
    access: 'admin',
    tag: 'channels',
    summary: 'Edit a channel or enable/disable it; periods already paid keep their rate',
    body: channelUpdateSchema,
    response: channelSchema,
  }),
}
