import { EventEmitter } from 'node:events'
import { Redis } from 'ioredis'
import type { LiveEvent } from '#contract/messages.ts'
import type { Database } from '../../db/client.ts'
import { type Journal, liveJournal } from './journal.ts'

/** An event as it reaches the streams: with the id every instance gives it (null when the journal failed). */
export type Delivered = { id: number | null; event: LiveEvent }

/**
 * Where live events go (decision 080): a topic per reader — `user:<id>`, `order:<id>` (a visitor's
 * chat), `admin` (every admin) and `all` (notifications) — and every SSE stream subscribes to its own.
 * In one process an EventEmitter carries them; with REDIS_URL one Redis pub/sub channel carries every
 * event to every API instance, each of which hands it to its own local subscribers. Each event is first
 * written to the database's short journal (`live_events`, decision 138): its row id is the event's SSE
 * id on every instance, and `replay` reads what a reconnecting stream missed.
 */
export type EventBus = {
  publish(topics: readonly string[], event: LiveEvent): Promise<void>
  /** Calls `listener` for every event on `topic` until the returned function is called. */
  subscribe(topic: string, listener: (delivered: Delivered) => void): () => void
  /** The journal's events on any of `topics` after `afterId`, oldest first (at most the replay window). */
  replay(topics: readonly string[], afterId: number): Promise<Delivered[]>
  close(): Promise<void>
}

export const topics = {
  user: (id: number) => `user:${id}`,
  order: (id: number) => `order:${id}`,
  admin: 'admin',
  all: 'all',
} as const

type Transport = {
  send(topics: readonly string[], delivered: Delivered): Promise<void>
  subscribe: EventBus['subscribe']
  close(): Promise<void>
}

function localTransport(): Transport & { emitLocal(topics: readonly string[], delivered: Delivered): void } {
  const emitter = new EventEmitter()
  // One listener per open stream: thousands are expected, not a leak.
  emitter.setMaxListeners(0)
  const emitLocal = (list: readonly string[], delivered: Delivered) => {
    for (const t of new Set(list)) emitter.emit(t, delivered)
  }
  return {
    emitLocal,
    async send(list, delivered) {
      emitLocal(list, delivered)
    },
    subscribe(topic, listener) {
      emitter.on(topic, listener)
      return () => emitter.off(topic, listener)
    },
    async close() {
      emitter.removeAllListeners()
    },
  }
}

/**
 * The bus over a transport: journal first (the id), then the transport. An event whose journal write
 * fails still goes out, without an id (events are hints; the database stays the truth).
 */
function busOver(journal: Journal, transport: Transport, onError: (err: unknown) => void): EventBus {
  return {
    async publish(list, event) {
      let id: number | null = null
      try {
        id = await journal.append(list, event)
      } catch (err) {
        onError(err)
      }
      await transport.send(list, { id, event })
    },
    subscribe: transport.subscribe,
    replay: (list, afterId) => journal.since(list, afterId),
    close: transport.close,
  }
}

export const memoryBus = (db: Database, onError: (err: unknown) => void): EventBus => busOver(liveJournal(db), localTransport(), onError)

const CHANNEL = 'payshare:events'

/**
 * Redis fan-out: publishing goes through Redis only (the instance hears its own events back on its
 * subscription, so nothing is delivered twice). A publish that fails is logged by the caller's catch;
 * events are hints, the database stays the truth (a reload shows everything).
 */
export async function redisBus(db: Database, url: string, onError: (err: unknown) => void): Promise<EventBus> {
  const local = localTransport()
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  const sub = new Redis(url, { lazyConnect: true })
  pub.on('error', onError)
  sub.on('error', onError)
  await Promise.all([pub.connect(), sub.connect()])
  sub.on('message', (_channel: string, raw: string) => {
    try {
      const { topics: list, id, event } = JSON.parse(raw) as { topics: string[]; id: number | null; event: LiveEvent }
      local.emitLocal(list, { id: id ?? null, event })
    } catch (err) {
      onError(err)
    }
  })
  await sub.subscribe(CHANNEL)
  const transport: Transport = {
    async send(list, delivered) {
      await pub.publish(CHANNEL, JSON.stringify({ topics: list, id: delivered.id, event: delivered.event }))
    },
    subscribe: local.subscribe,
    async close() {
      await local.close()
      sub.disconnect()
      pub.disconnect()
    },
  }
  return busOver(liveJournal(db), transport, onError)
}
