import type { LoaderFunctionArgs } from '@remix-run/node'
import { EVENTS_PATH, SSE_GOODBYE } from '#contract/messages.ts'
import { BUYER_KEY_HEADER, UNICODE_PATTERN } from '#contract/codes.ts'
import { getToken } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'
import { onDrain } from '#app/.server/live-streams.ts'
import { readPurchases } from '#app/.server/purchases.ts'

/**
 * GET /events — the browser's same-origin live stream (issue 10): the API's server-sent events streamed
 * through with the session's token. `?share=<unicode>` is a visitor's chat instead: the order number
 * and its buyer key come from the signed purchase cookie (never from the URL; decision 102), and the
 * stream is scoped to that order. A purchase without a key (an order number typed on `/`) has none.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const share = new URL(request.url).searchParams.get('share')
  const query = new URLSearchParams()
  const headers: Record<string, string> = { accept: 'text/event-stream' }
  if (share !== null) {
    const purchase = UNICODE_PATTERN.test(share) ? (await readPurchases(request))[share] : undefined
    if (!purchase?.buyerKey) return new Response(null, { status: 404 })
    query.set('order_no', purchase.orderNo)
    headers[BUYER_KEY_HEADER] = purchase.buyerKey
  } else {
    const token = await getToken(request)
    if (!token) return new Response(null, { status: 401 })
    headers.authorization = `Bearer ${token}`
  }
  // A reconnecting EventSource names the last event it read: the API sends what came after (decision 138).
  const lastEventId = request.headers.get('last-event-id')
  if (lastEventId) headers['last-event-id'] = lastEventId
  let upstream: Response
  try {
    upstream = await fetch(`${env.apiUrl}${EVENTS_PATH}?${query}`, { headers, signal: request.signal })
  } catch {
    return new Response(null, { status: 503 })
  }
  if (!upstream.ok || !upstream.body) return new Response(null, { status: upstream.status })
  return new Response(relay(upstream.body), {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: the console's compression must not buffer the stream.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}

/**
 * The upstream body, passed on whole events at a time, and ended quietly when the browser goes away:
 * its disconnect aborts the upstream fetch, and the read that fails then is the normal end of a live
 * stream, not an error to log. When the console stops (SIGTERM) the stream ends between two events with
 * the reconnect hint; the part of an event not yet passed on is sent again after the reconnect.
 */
function relay(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  let ended = false
  let off = () => {}
  const end = (controller: ReadableStreamDefaultController<Uint8Array>, last?: string) => {
    if (ended) return
    ended = true
    off()
    if (last) controller.enqueue(encoder.encode(last))
    controller.close()
    reader.cancel().catch(() => {})
  }
  return new ReadableStream({
    start(controller) {
      off = onDrain(() => end(controller, SSE_GOODBYE))
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (ended) return
        if (done) return end(controller)
        pending += decoder.decode(value, { stream: true })
        const cut = pending.lastIndexOf('\n\n')
        if (cut >= 0) {
          controller.enqueue(encoder.encode(pending.slice(0, cut + 2)))
          pending = pending.slice(cut + 2)
        }
      } catch {
        end(controller)
      }
    },
    cancel() {
      ended = true
      off()
      reader.cancel().catch(() => {})
    },
  })
}
