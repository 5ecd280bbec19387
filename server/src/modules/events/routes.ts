import type { ServerResponse } from 'node:http'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { EVENTS_PATH, eventsQuerySchema, SSE_GOODBYE } from '#contract/messages.ts'
import { notFound, unauthorized } from '../../errors.ts'
import { defineModule } from '../../http/module.ts'
import { metrics } from '../../metrics.ts'
import { buyerKeyOf } from '../../http/buyer-key.ts'
import { callersOrder } from '../chat/index.ts'
import { type Delivered, topics } from '../bus/index.ts'

/** Each event serialised once, however many streams it is written to (1,000 streams: 1 stringify). */
const frames = new WeakMap<Delivered, string>()
const frameOf = (d: Delivered) => {
  let f = frames.get(d)
  if (!f) frames.set(d, (f = `${d.id === null ? '' : `id: ${d.id}\n`}event: ${d.event.type}\ndata: ${JSON.stringify(d.event)}\n\n`))
  return f
}

/** The `Last-Event-ID` a reconnecting EventSource sends (the last `id:` it read), when it is one of ours. */
function lastEventId(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header
  return v && /^\d{1,15}$/.test(v) ? Number(v) : null
}

/** Ids a stream has written, so an event replayed and also heard live is written once (the newest 1,000). */
class SentIds {
  private ids = new Set<number>()
  add(id: number): boolean {
    if (this.ids.has(id)) return false
    this.ids.add(id)
    if (this.ids.size > 1000) this.ids.delete(this.ids.values().next().value!)
    return true
  }
}

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
const HEARTBEAT_MS = 25_000

/**
 * `GET /api/events` (issue 10): one server-sent-event stream per reader. Each event names its type
 * (`event:`) and carries the LiveEvent JSON; the browser reaches it through the console's same-origin
 * `/events` route, which adds the session's token.
 */
export default defineModule({
  name: 'events',
  routes(r) {
    const app = r.app.withTypeProvider<ZodTypeProvider>()
    const open = new Set<ServerResponse>()
    // Open streams never end by themselves: close them, with the reconnect hint, so the server can stop.
    app.addHook('preClose', async () => {
      for (const res of open) res.end(SSE_GOODBYE)
    })
    app.get(EVENTS_PATH, { config: { access: 'optional' }, schema: { hide: true, querystring: eventsQuerySchema } }, async (request, reply) => {
      const list: string[] = []
      if (request.user) {
        list.push(topics.user(request.user.id), topics.all)
        if (request.user.role === 'admin') list.push(topics.admin)
      }
      if (request.query.order_no) {
        // A visitor's chat: only for the browser that created the order (its buyer key), never for
        // the order number alone; anyone else is told what an unknown order is (decision 102).
        const caller = { userId: request.user?.id ?? null, admin: false, orderNo: request.query.order_no, buyerKey: buyerKeyOf(request) }
        const order = await callersOrder(app, caller)
        if (!order) throw notFound('messages.orderNotFound')
        list.push(topics.order(order.id))
      }
      if (!list.length) throw unauthorized()

      reply.hijack()
      const res = reply.raw
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx: do not buffer this response (the compose load balancer turns buffering off too).
        'x-accel-buffering': 'no',
      })
      res.write('retry: 3000\n\n')
      open.add(res)
      metrics.sseStreams.inc()
      // One event may reach a reader on two of their topics (an admin who is also the buyer), or be both
      // replayed and heard live: send it once.
      const sent = new SentIds()
      let last: Delivered | null = null
      const write = (d: Delivered) => {
        if (res.destroyed || res.writableEnded || d === last || (d.id !== null && !sent.add(d.id))) return
        last = d
        res.write(frameOf(d))
      }
      const after = lastEventId(request.headers['last-event-id'])
      // While the missed events are read, live ones wait behind them (oldest first, each once).
      let held: Delivered[] | null = after === null ? null : []
      const send = (d: Delivered) => (held ? held.push(d) : write(d))
      const unsubscribe = list.map((t) => app.events.subscribe(t, send))
      const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      request.raw.on('close', () => {
        clearInterval(heartbeat)
        for (const off of unsubscribe) off()
        open.delete(res)
        metrics.sseStreams.dec()
      })
      if (after !== null) {
        try {
          for (const d of await app.events.replay(list, after)) write(d)
        } catch (err) {
          request.log.error({ err }, 'replaying live events failed')
        }
        const waiting = held ?? []
        held = null
        for (const d of waiting) write(d)
      }
    })
  },
})
