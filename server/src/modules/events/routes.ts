import type { ServerResponse } from 'node:http'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { EVENTS_PATH, eventsQuerySchema, type LiveEvent } from '#contract/messages.ts'
import { notFound, unauthorized } from '../../errors.ts'
import { defineModule } from '../../http/module.ts'
import { buyerKeyOf } from '../../http/buyer-key.ts'
import { callersOrder } from '../chat/index.ts'
import { topics } from '../bus/index.ts'

/** Each event serialised once, however many streams it is written to (1,000 streams: 1 stringify). */
const frames = new WeakMap<LiveEvent, string>()
const frameOf = (event: LiveEvent) => {
  let f = frames.get(event)
  if (!f) frames.set(event, (f = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`))
  return f
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
    // Open streams never end by themselves: close them so the server can stop.
    app.addHook('preClose', async () => {
      for (const res of open) res.end()
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
      // One event may reach a reader on two of their topics (an admin who is also the buyer): send it once.
      let last: LiveEvent | null = null
      const send = (event: LiveEvent) => {
        if (event === last) return
        last = event
        res.write(frameOf(event))
      }
      const unsubscribe = list.map((t) => app.events.subscribe(t, send))
      const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      request.raw.on('close', () => {
        clearInterval(heartbeat)
        for (const off of unsubscribe) off()
        open.delete(res)
      })
    })
  },
})
