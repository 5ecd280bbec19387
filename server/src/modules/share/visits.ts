import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { shanghaiDay } from '#contract/days.ts'

/**
 * Visits count once per visitor per share per day. Recording them on every page view would put a
 * write on the hottest read, so views are deduplicated in memory and written in batches every
 * `flushMs`; the database's unique (share, visitor, day) key still decides what counts, across
 * instances. A crash loses at most the last batch of visit counts — never money.
 */
export class VisitRecorder {
  private seen = new Set<string>()
  private seenDay = shanghaiDay()
  private pending: { shareId: number; visitorKey: string; day: string }[] = []
  private pendingPerShare = new Map<number, number>()
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private db: Database,
    private onError: (err: unknown) => void,
    private onWritten: (shareIds: Set<number>) => void = () => {},
    private flushMs = 1000,
  ) {}

  private dayEndsAt = 0

  /** The Asia/Shanghai day, recomputed only when it changes (this runs on every share view). */
  private today(): string {
    const now = Date.now()
    if (now >= this.dayEndsAt) {
      this.seenDay = shanghaiDay(new Date(now))
      this.seen.clear()
      const DAY = 24 * 3600 * 1000
      const offset = 8 * 3600 * 1000
      this.dayEndsAt = Math.floor((now + offset) / DAY) * DAY + DAY - offset
    }
    return this.seenDay
  }

  /** Records a view; returns how many not-yet-written visits the share has (to show an honest count). */
  record(shareId: number, visitorKey: string): number {
    const day = this.today()
    const key = `${shareId}|${visitorKey}`
    if (!this.seen.has(key)) {
      if (this.seen.size > 200_000) this.seen.clear()
      this.seen.add(key)
      this.pending.push({ shareId, visitorKey, day })
      this.pendingPerShare.set(shareId, (this.pendingPerShare.get(shareId) ?? 0) + 1)
      this.timer ??= setTimeout(() => void this.flush(), this.flushMs)
    }
    return this.pendingPerShare.get(shareId) ?? 0
  }

  /** Writes the batch: one statement inserts the new (share, visitor, day) rows and bumps the counts. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      clearTimeout(this.timer)
      this.timer = undefined
      const batch = this.pending.splice(0)
      if (!batch.length) return
      const values = sql.join(
        batch.map((v) => sql`(${v.shareId}::int, ${v.visitorKey}, ${v.day})`),
        sql`, `,
      )
      try {
        await this.db.execute(sql`
          with v as (
            insert into share_visits (share_id, visitor_key, day) values ${values}
            on conflict do nothing returning share_id
          ), c as (select share_id, count(*)::int as n from v group by share_id)
          update shares set visit_count = visit_count + c.n from c where shares.id = c.share_id`)
      } catch (err) {
        this.onError(err)
      } finally {
        this.onWritten(new Set(batch.map((v) => v.shareId)))
        for (const v of batch) {
          const left = (this.pendingPerShare.get(v.shareId) ?? 1) - 1
          if (left > 0) this.pendingPerShare.set(v.shareId, left)
          else this.pendingPerShare.delete(v.shareId)
        }
      }
    })
    return this.flushing
  }
}
