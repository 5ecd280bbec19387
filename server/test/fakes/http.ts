// Plumbing shared by the fake gateways: a loopback HTTP server and the way a fake delivers its
// notifications to the merchant's notify_url.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeRequest = { method: string; url: URL; headers: http.IncomingHttpHeaders; body: Buffer }
export type FakeResponse = { status: number; headers?: Record<string, string>; body?: string | Buffer }

/** A notification on its way to the merchant. */
export type OutgoingNotify = { url: string; headers: Record<string, string>; body: string }
export type NotifyAnswer = { status: number; body: string }
/**
 * How a fake reaches notify_url. Real HTTP by default; an API test can pass one that hands the
 * request to `app.inject`, so the app under test need not listen on a port.
 */
export type NotifyTransport = (req: OutgoingNotify) => Promise<NotifyAnswer>

export const httpTransport: NotifyTransport = async (req) => {
  try {
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body, signal: AbortSignal.timeout(5_000), redirect: 'manual' })
    return { status: res.status, body: await res.text() }
  } catch (err) {
    // An unreachable merchant counts as a failed attempt, like a timeout at the real gateway.
    return { status: 0, body: err instanceof Error ? err.message : String(err) }
  }
}

/** A retry schedule in real minutes, compressed to 1 ms per real hour (at least 1 ms): the attempts, not the wait. */
export const compressSchedule = (minutes: number[]) => minutes.map((m) => Math.max(1, Math.round(m / 60)))

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export type Delivery = { delivered: boolean; attempts: NotifyAnswer[]; last: OutgoingNotify }

/**
 * Sends a notification, then retries after each delay while the answer is not accepted. `build`
 * runs per attempt (WeChat signs every attempt afresh; Alipay resends the same body).
 */
export async function deliverWithRetries(
  transport: NotifyTransport,
  build: () => OutgoingNotify,
  accepted: (answer: NotifyAnswer) => boolean,
  delaysMs: number[],
): Promise<Delivery> {
  const attempts: NotifyAnswer[] = []
  let last = build()
  for (let i = 0; ; i++) {
    const answer = await transport(last)
    attempts.push(answer)
    if (accepted(answer)) return { delivered: true, attempts, last }
    if (i >= delaysMs.length) return { delivered: false, attempts, last }
    await sleep(delaysMs[i]!)
    last = build()
  }
}

export async function startServer(
  handle: (req: FakeRequest) => Promise<FakeResponse> | FakeResponse,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      Promise.resolve()
        .then(() => handle({ method: req.method ?? 'GET', url, headers: req.headers, body: Buffer.concat(chunks) }))
        .then(
          (out) => {
            res.writeHead(out.status, out.headers)
            res.end(out.body ?? '')
          },
          (err: unknown) => {
            res.writeHead(500, { 'content-type': 'text/plain' })
            res.end(`fake gateway crashed: ${err instanceof Error ? err.stack : String(err)}`)
          },
        )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function randomDigits(n: number): string {
  let out = ''
  while (out.length < n)
    out += Math.floor(Math.random() * 1e9)
      .toString()
      .padStart(9, '0')
  return out.slice(0, n)
}
