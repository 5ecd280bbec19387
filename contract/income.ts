import { z } from 'zod'
import { endpoint } from './http.ts'

/**
 * SPEC §3 Dashboard figures of the caller as a seller, in yuan (decision 045 says what each sums):
 * - `total`: every sale's income less its refund;
 * - `month` / `today`: the same, of entries posted in the current Asia/Shanghai month / day;
 * - `unsettled`: income still inside its settlement delay;
 * - `withdrawable`: the balance less what is unsettled — negative after a refund of settled income,
 *   and then withdrawals are blocked until it is positive again.
 */
export const incomeSummarySchema = z.object({
  withdrawable: z.number(),
  month: z.number(),
  today: z.number(),
  unsettled: z.number(),
  total: z.number(),
})
export type IncomeSummary = z.infer<typeof incomeSummarySchema>

/** How many days the daily series may span (the dashboard chart shows 30). */
export const INCOME_DAYS_MAX = 90
export const INCOME_DAYS_DEFAULT = 30

export const incomeDailyQuerySchema = z.object({
  days: z.coerce.number({ error: 'validation.number' }).int('income.daysRange').min(1, 'income.daysRange').max(INCOME_DAYS_MAX, 'income.daysRange').default(INCOME_DAYS_DEFAULT),
})

/** One Asia/Shanghai day (yyyy-MM-dd): net income (yuan) and the sales posted that day. */
export const incomeDaySchema = z.object({ day: z.string(), income: z.number(), orders: z.number().int() })
export type IncomeDay = z.infer<typeof incomeDaySchema>

/** Every day of the range, oldest first, today last; days without sales are zeros. */
export const incomeDailySchema = z.object({ list: z.array(incomeDaySchema) })
export type IncomeDaily = z.infer<typeof incomeDailySchema>

export const incomeApi = {
  summary: endpoint({
    method: 'GET',
    path: '/api/income/summary',
    access: 'user',
    tag: 'income',
    summary: "The caller's dashboard figures: withdrawable, this month, today, unsettled and total income (yuan)",
    response: incomeSummarySchema,
  }),
  daily: endpoint({
    method: 'GET',
    path: '/api/income/daily',
    access: 'user',
    tag: 'income',
    summary: "The caller's net income and sales per Asia/Shanghai day for the last `days` days (1–90, default 30), oldest first",
    query: incomeDailyQuerySchema,
    response: incomeDailySchema,
  }),
}
