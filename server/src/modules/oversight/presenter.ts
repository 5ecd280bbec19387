import { fenToYuan } from '#contract/money.ts'
import type { FraudRun } from './repository.ts'

/** A run of the fraud action as the API shows it: amounts in yuan. */
export const presentRun = (r: FraudRun) => ({
  state: r.state,
  refunded_count: r.refundedCount,
  refunded_total: fenToYuan(r.refundedFen),
  last_error: r.lastError,
  created_at: r.createdAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
})
