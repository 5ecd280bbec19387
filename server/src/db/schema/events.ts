import { bigserial, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { LiveEvent } from '#contract/messages.ts'
import { createdAt } from './columns.ts'

// Live events kept for a short while after they are published (written by the bus module): their ids are
// the SSE `id:` every API instance gives the same event, and a stream reconnecting with `Last-Event-ID`
// is sent the rows after it (decision 138).

export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    topics: text('topics').array().notNull(),
    event: jsonb('event').$type<LiveEvent>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('live_events_created_at_idx').on(t.createdAt)],
)
