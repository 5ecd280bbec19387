import { and, arrayOverlaps, asc, gt, lt, sql } from 'drizzle-orm'
import type { LiveEvent } from '#contract/messages.ts'
import type { Database } from '../../db/client.ts'
import { liveEvents } from '../../db/schema/index.ts'

/** How long published events stay replayable, and the most one reconnect is sent (decision 138). */
const REPLAY_WINDOW_MINUTES = 10
const REPLAY_MAX_EVENTS = 500
/** Older rows are deleted at most this often, by whichever instance publishes. */
const PRUNE_EVERY_MS = 60_000

export type Journal = {
  append(topics: readonly string[], event: LiveEvent): Promise<number>
  since(topics: readonly string[], afterId: number): Promise<{ id: number; event: LiveEvent }[]>
}

/** The `live_events` table: one row per published event, kept for the replay window. */
export function liveJournal(db: Database): Journal {
  let prunedAt = 0
  const window = sql`now() - make_interval(mins => ${REPLAY_WINDOW_MINUTES})`
  return {
    async append(list, event) {
      const [row] = await db
        .insert(liveEvents)
        .values({ topics: [...new Set(list)], event })
        .returning({ id: liveEvents.id })
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now()
        await db.delete(liveEvents).where(lt(liveEvents.createdAt, window))
      }
      return row!.id
    },
    async since(list, afterId) {
      if (!list.length) return []
      return db
        .select({ id: liveEvents.id, event: liveEvents.event })
        .from(liveEvents)
        .where(and(gt(liveEvents.id, afterId), arrayOverlaps(liveEvents.topics, [...list]), sql`${liveEvents.createdAt} >= ${window}`))
        .orderBy(asc(liveEvents.id))
        .limit(REPLAY_MAX_EVENTS)
    },
  }
}
