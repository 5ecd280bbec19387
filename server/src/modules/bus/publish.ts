import type { FastifyInstance } from 'fastify'
import type { LiveEvent } from '#contract/messages.ts'

/** Live events are hints: a failed publish (Redis away) is logged, never fails the write already committed. */
export function announce(app: Pick<FastifyInstance, 'events' | 'log'>, list: readonly string[], event: LiveEvent) {
  app.events.publish(list, event).catch((err: unknown) => app.log.error({ err }, 'publishing a live event failed'))
}
