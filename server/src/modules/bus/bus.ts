import { EventEmitter } from 'node:events'
import { Redis } from 'ioredis'
import type { LiveEvent } from '#contract/messages.ts'

/**
 * Where live events go (decision 080): a topic per reader — `user:<id>`, `order:<id>` (a visitor's
 * chat), `admin` (every admin) and `all` (notifications) — and every SSE stream subscribes to its own.
 * In one process an EventEmitter carries them; with REDIS_URL one Redis pub/sub channel carries every
 * event to every API instance, each of which hands it to its own local subscribers.
 */
export type EventBus = {
  publish(topics: readonly string[], event: LiveEvent): Promise<void>
  /** Calls `listener` for every event on `topic` until the returned function is called. */
  subscribe(topic: string, listener: (event: LiveEvent) => void): () => void
  close(): Promise<void>
}

export const topics = {
  user: (id: number) => `user:${id}`,
  order: (id: number) => `order:${id}`,
  admin: 'admin',
  all: 'all',
} as const

function localBus(): EventBus & { emitLocal(topics: readonly string[], event: LiveEvent): void } {
  const emitter = new EventEmitter()
  // One listener per open stream: thousands are expected, not a leak.
  emitter.setMaxListeners(0)
  const emitLocal = (list: readonly string[], event: LiveEvent) => {
    for (const t of new Set(list)) emitter.emit(t, event)
  }
  return {
    emitLocal,
    async publish(list, event) {
      emitLocal(list, event)
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

export const memoryBus = (): EventBus => localBus()

const CHANNEL = 'payshare:events'

/**
 * Redis fan-out: publishing goes through Redis only (the instance hears its own events back on its
 * subscription, so nothing is delivered twice). A publish that fails is logged by the caller's catch;
 * events are hints, the database stays the truth (a reload shows everything).
 */
export async function redisBus(url: string, onError: (err: unknown) => void): Promise<EventBus> {
  const local = localBus()
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  const sub = new Redis(url, { lazyConnect: true })
  pub.on('error', onError)
  sub.on('error', onError)
  await Promise.all([pub.connect(), sub.connect()])
  sub.on('message', (_channel: string, raw: string) => {
    try {
      const { topics: list, event } = JSON.parse(raw) as { topics: string[]; event: LiveEvent }
      local.emitLocal(list, event)
    } catch (err) {
      onError(err)
    }
  })
  await sub.subscribe(CHANNEL)
  return {
    async publish(list, event) {
      await pub.publish(CHANNEL, JSON.stringify({ topics: list, event }))
    },
    subscribe: local.subscribe,
    async close() {
      await local.close()
      sub.disconnect()
      pub.disconnect()
    },
  }
}
