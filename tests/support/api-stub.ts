// A tiny HTTP server standing in for the API in the console's loader/action tests: it answers the
// `{code, msg, data}` envelope per `METHOD /path`, records every call, and can stop answering to play
// an API that is down. `startApiStub()` points the console at it (API_URL) — call it in `vi.hoisted`,
// before the console's modules read their settings.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type StubCall = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: unknown }
/** An envelope to answer (`code` doubles as the HTTP status), or `raw` for a non-JSON answer (a proxy's error page). */
export type StubAnswer = { code?: number; msg?: string; data?: unknown } | { raw: string; status: number }
type Handler = (call: StubCall) => StubAnswer | Promise<StubAnswer>

export type ApiStub = Awaited<ReturnType<typeof startApiStub>>

export async function startApiStub() {
  const handlers = new Map<string, Handler>()
  const calls: StubCall[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://stub')
      const text = Buffer.concat(chunks).toString('utf8')
      const call: StubCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: text ? JSON.parse(text) : undefined }
      calls.push(call)
      const handler = handlers.get(`${call.method} ${call.path}`)
      const answer: StubAnswer = handler ? await handler(call) : { code: 404, msg: 'errors.notFound', data: null }
      if ('raw' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.raw)
        return
      }
      const code = answer.code ?? 200
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ code, msg: answer.msg ?? 'ok', data: answer.data ?? null }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  process.env.API_URL = `http://127.0.0.1:${port}`
  process.env.SESSION_SECRET ||= 'console-tests-session-secret'
  let down = false
  return {
    port,
    calls,
    /** Answers `METHOD /path` (replacing an earlier answer). */
    on(route: `${'GET' | 'POST'} /api/${string}`, handler: Handler | StubAnswer) {
      handlers.set(route, typeof handler === 'function' ? handler : () => handler)
    },
    /** How many calls reached `path`. */
    count: (path: string) => calls.filter((c) => c.path === path).length,
    reset() {
      handlers.clear()
      calls.length = 0
    },
    /** Stops answering (connections refused) until `up()`. */
    async down() {
      if (down) return
      down = true
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    async up() {
      if (!down) return
      down = false
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    },
    async close() {
      if (down) return
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
