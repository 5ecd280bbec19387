import { z } from 'zod'
import { addDays, dayStart } from './days.ts'
import { endpoint, pageOf } from './http.ts'

/**
 * Admin statistics (SPEC §9 tabs; decision 073 says what each figure sums). Orders count on the
 * Asia/Shanghai day they were created, with their status now; withdrawals on the day they were applied
 * for. Amounts in yuan.
 */
export const STATISTICS_TABS = ['comprehensive', 'orders', 'sellers', 'withdrawals'] as const
export type StatisticsTab = (typeof STATISTICS_TABS)[number]

/** A range spans at most this many days (a year and a leap day); without one, the last 30 days. */
export const STATISTICS_RANGE_MAX_DAYS = 366
export const STATISTICS_RANGE_DEFAULT_DAYS = 30
/** Rows per page; the CSV export reads the pages of this size one after the other. */
export const STATISTICS_PAGE_MAX = 500

/** The sortable columns of each tab (the query's `sort`), default first. */
export const STATISTICS_SORTS = {
  comprehensive: ['gmv', 'sold', 'income', 'bought', 'spent', 'withdrawn'],
  orders: ['amount', 'orders', 'completed', 'pending', 'failed', 'refunded', 'refundAmount'],
  sellers: ['gmv', 'orders', 'completed', 'pending', 'failed', 'refunded', 'free', 'refundAmount', 'fee', 'income'],
  withdrawals: ['amount', 'count', 'completed', 'pending', 'failed', 'paid', 'fee'],
} as const satisfies Record<StatisticsTab, readonly string[]>
export type StatisticsSort<T extends StatisticsTab> = (typeof STATISTICS_SORTS)[T][number]

const day = z.iso.date({ error: 'validation.date' })

/** Number of days from `from` to `to`, both counted. */
export function rangeDays(from: string, to: string): number {
  return Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / 86_400_000) + 1
}

/** The range of a request: `to` defaults to today, `from` to 29 days before `to`. */
export function resolveRange(q: { from?: string | undefined; to?: string | undefined }, today: string): { from: string; to: string } {
  const to = q.to ?? (q.from && q.from > today ? q.from : today)
  return { from: q.from ?? addDays(to, 1 - STATISTICS_RANGE_DEFAULT_DAYS), to }
}

/** `from`/`to` (yyyy-MM-dd, Asia/Shanghai, inclusive): in order, and at most a year apart. */
export const statisticsRangeSchema = z
  .object({ from: day.optional(), to: day.optional() })
  .superRefine((v, ctx) => {
    if (!v.from || !v.to) return
    if (v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'statistics.rangeOrder' })
    else if (rangeDays(v.from, v.to) > STATISTICS_RANGE_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: 'statistics.rangeTooLong' })
  })

const pageQuery = {
  pageNum: z.coerce.number({ error: 'validation.number' }).int().min(1).max(100000).default(1),
  pageSize: z.coerce.number({ error: 'validation.number' }).int().min(1).max(STATISTICS_PAGE_MAX).default(20),
  order: z.enum(['asc', 'desc'], { error: 'statistics.badOrder' }).default('desc'),
}

function tabQuery<T extends StatisticsTab>(tab: T) {
  const sorts = STATISTICS_SORTS[tab] as unknown as readonly [StatisticsSort<T>, ...StatisticsSort<T>[]]
  return z
    .object({ from: day.optional(), to: day.optional(), sort: z.enum(sorts, { error: 'statistics.badSort' }).default(sorts[0]), ...pageQuery })
    .superRefine((v, ctx) => {
      const r = statisticsRangeSchema.safeParse({ from: v.from, to: v.to })
      if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
    })
}

export const statisticsQuerySchemas = {
  comprehensive: tabQuery('comprehensive'),
  orders: tabQuery('orders'),
  sellers: tabQuery('sellers'),
  withdrawals: tabQuery('withdrawals'),
}

const user = { userId: z.number().int(), username: z.string() }

/** Per user, as a buyer (with an account): their orders created in the range by status, and amounts. */
export const orderFiguresSchema = z.object({
  orders: z.number().int(),
  completed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  refunded: z.number().int(),
  /** Paid and kept: the amount of the Completed orders. */
  amount: z.number(),
  refundAmount: z.number(),
})

/** Per seller: their sales created in the range; `gmv` is the amount of the Completed ones. */
export const sellerFiguresSchema = z.object({
  orders: z.number().int(),
  completed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  refunded: z.number().int(),
  /** Completed orders of amount 0: subscribers' free unlocks. */
  free: z.number().int(),
  gmv: z.number(),
  refundAmount: z.number(),
  fee: z.number(),
  income: z.number(),
})

/** Per seller, now (not bound to the range): shares not deleted, their visits, and purchases / visits. */
export const sellerSharesSchema = z.object({
  shares: z.number().int(),
  visits: z.number().int(),
  purchases: z.number().int(),
  /** purchases / visits (0–1, may exceed 1 for buyers who never visited the page), null without visits. */
  conversionRate: z.number().nullable(),
})

/** Per user: the withdrawals applied for in the range. `paid` is what reached Alipay (Completed, after the fee). */
export const withdrawalFiguresSchema = z.object({
  count: z.number().int(),
  completed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  amount: z.number(),
  paid: z.number(),
  fee: z.number(),
})

/** Per user, the three sides in one row. */
export const comprehensiveFiguresSchema = z.object({
  bought: z.number().int(),
  spent: z.number(),
  sold: z.number().int(),
  gmv: z.number(),
  income: z.number(),
  withdrawn: z.number(),
})

/** One day of the comprehensive tab's series: the platform's Completed orders and their amount, new users. */
export const statisticsDaySchema = z.object({ day: z.string(), orders: z.number().int(), gmv: z.number(), refunded: z.number().int(), newUsers: z.number().int() })
export type StatisticsDay = z.infer<typeof statisticsDaySchema>

function tabResponse<F extends z.ZodObject>(figures: F, row: z.ZodObject = figures) {
  return pageOf(row.extend(user)).extend({ from: z.string(), to: z.string(), totals: figures })
}

export const statisticsResponses = {
  comprehensive: tabResponse(comprehensiveFiguresSchema).extend({ daily: z.array(statisticsDaySchema) }),
  orders: tabResponse(orderFiguresSchema),
  sellers: tabResponse(sellerFiguresSchema, sellerFiguresSchema.extend(sellerSharesSchema.shape)),
  withdrawals: tabResponse(withdrawalFiguresSchema),
}

/** The instrument cluster: platform figures now (Asia/Shanghai today / this month) and the queues. */
export const clusterSchema = z.object({
  today: z.string(),
  gmvToday: z.number(),
  ordersToday: z.number().int(),
  gmvMonth: z.number(),
  ordersMonth: z.number().int(),
  newUsersToday: z.number().int(),
  newUsersMonth: z.number().int(),
  /** Sellers with a Completed sale created this month. */
  activeSellers: z.number().int(),
  sharesUnderReview: z.number().int(),
  openReports: z.number().int(),
  pendingAppeals: z.number().int(),
  pendingWithdrawals: z.number().int(),
})
export type Cluster = z.infer<typeof clusterSchema>

const tabEndpoint = <T extends StatisticsTab>(tab: T, summary: string) =>
  endpoint({
    method: 'GET',
    path: `/api/statistics/admin/${tab}`,
    access: 'admin',
    tag: 'statistics',
    summary,
    query: statisticsQuerySchemas[tab],
    response: statisticsResponses[tab],
  })

export const statisticsApi = {
  comprehensive: tabEndpoint('comprehensive', 'Per user: orders bought, sales, income and withdrawals in a range of Asia/Shanghai days, with the daily platform series'),
  orders: tabEndpoint('orders', 'Per buyer: their orders in a range by status, paid and refunded amounts'),
  sellers: tabEndpoint('sellers', 'Per seller: sales in a range by status, GMV, fees, income; shares, visits and conversion rate'),
  withdrawals: tabEndpoint('withdrawals', 'Per user: withdrawals applied for in a range by status, amounts and fees'),
  cluster: endpoint({
    method: 'GET',
    path: '/api/statistics/admin/cluster',
    access: 'admin',
    tag: 'statistics',
    summary: 'Platform figures at a glance: GMV and orders today / this month, new users, active sellers, the moderation and payout queues',
    response: clusterSchema,
  }),
}

/** The first instant after the range (exclusive bound on created_at). */
export function rangeEnd(to: string): Date {
  return dayStart(addDays(to, 1))
}
