// "Ban seller and refund buyers" (issue 9, decision 067): the pure parts.

const DAY_MS = 24 * 3600 * 1000

/**
 * How long a run holds its claim on a seller without a sign of life; every refund it commits renews it.
 * A run that crashed is resumed by the next one after this.
 */
export const FRAUD_LEASE_MS = 60_000

/** How many orders a run loads at once (it refunds them one by one, then loads the next). */
export const FRAUD_BATCH = 50

/** Orders paid at or after this instant are refunded: `days` back from `now`. */
export const windowStart = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS)

type Run = { state: 'running' | 'interrupted' | 'done'; since: Date; leaseUntil: Date | null }

/** Whether a new run may take the seller over: none yet, the last one finished or stopped, or its lease ran out. */
export const claimable = (run: Run | null, now: Date) => !run || run.state !== 'running' || !run.leaseUntil || run.leaseUntil < now

/**
 * The window of a run: a run being resumed keeps the window its first attempt fixed (so it refunds the
 * same orders however late it resumes); after a finished run, a new action starts a new window.
 */
export const runSince = (run: Run | null, now: Date, days: number) => (run && run.state !== 'done' ? run.since : windowStart(now, days))

/** The reason kept in the audit trail of each step of run `id`. */
export const fraudReason = (runId: number) => `fraud action #${runId}`
