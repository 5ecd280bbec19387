import type { LoaderFunctionArgs } from '@remix-run/node'
import { EVENTS_PATH } from '#contract/messages.ts'
import { BUYER_KEY_HEADER, UNICODE_PATTERN } from '#contract/codes.ts'
import { getToken } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'
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
  let upstream: Response
  try {
    upstream = await fetch(`${env.apiUrl}${EVENTS_PATH}?${query}`, { headers, signal: request.signal })
  } catch {
    return new Response(null, { status: 503 })
  }
  if (!upstream.ok || !upstream.body) return new Response(null, { status: upstream.status })
  return new Response(quietOnDisconnect(upstream.body), {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: the console's compression must not buffer the stream.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}

/**
 * The upstream body, ended quietly when the browser goes away: its disconnect aborts the upstream
 * fetch, and the read that fails then is the normal end of a live stream, not an error to log.
 */
function quietOnDisconnect(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      } catch {
        controller.close()
      }
    },
    cancel() {
      reader.cancel().catch(() => {})
    },
  })
}
