import type { StatisticsTab } from '#contract/statistics.ts'
import type { UserTable } from './rules.ts'

/**
 * The per-user figures of a tab over some past days, as they were at a version of those days: the sum
 * of their platform rows' `changes`, and the last `order_stats_log` row seen (decision 101).
 */
export type PastFigures = { version: number; logId: number; table: UserTable }

/** At most this many users' figures are kept in all (~35 MB at the widest tab); the least recent go first. */
export const MAX_USERS = 400_000

/**
 * Past figures by tab and day range, the most recently used last. Process memory: every API instance
 * keeps its own, and each entry is checked against the database before use, so instances never need to
 * tell each other anything.
 */
export class StatisticsCache {
  constructor(private readonly maxUsers = MAX_USERS) {}
  private readonly entries = new Map<string, PastFigures>()
  private users = 0
  /**
   * How past figures were had since the start: as kept, caught up by the log, shifted from a range days
   * earlier, summed whole.
   */
  readonly counts = { kept: 0, caughtUp: 0, shifted: 0, summed: 0 }

  get(tab: StatisticsTab, from: string, to: string): PastFigures | undefined {
    const key = `${tab}|${from}|${to}`
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(tab: StatisticsTab, from: string, to: string, value: PastFigures): void {
    const key = `${tab}|${from}|${to}`
    this.drop(key)
    if (value.table.userIds.length > this.maxUsers) return
    this.entries.set(key, value)
    this.users += value.table.userIds.length
    for (const oldest of this.entries.keys()) {
      if (this.users <= this.maxUsers) break
      this.drop(oldest)
    }
  }

  private drop(key: string) {
    const old = this.entries.get(key)
    if (!old) return
    this.entries.delete(key)
    this.users -= old.table.userIds.length
  }
}

/**
 * The kept blocks' figures apart (decision 144): a year of blocks of the three tabs at 1,000,000
 * orders is ~1.5 million users' rows (~90 MB); ranges and
 * months do not push each other out.
 */
export const MAX_MONTH_USERS = 2_000_000

const caches = new WeakMap<object, StatisticsCache>()
const monthCaches = new WeakMap<object, StatisticsCache>()

/** The cache of one database (tests run many apps, each on its own database, in one process). */
export function cacheOf(db: object): StatisticsCache {
  let c = caches.get(db)
  if (!c) caches.set(db, (c = new StatisticsCache()))
  return c
}

/** The kept whole months of one database, by tab (the key's range is the month's first and last day). */
export function monthCacheOf(db: object): StatisticsCache {
  let c = monthCaches.get(db)
  if (!c) monthCaches.set(db, (c = new StatisticsCache(MAX_MONTH_USERS)))
  return c
}
