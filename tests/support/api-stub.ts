// A tiny HTTP server standing in for the API in the console's loader/action tests: it answers the
// `{code, msg, data}` envelope per endpoint of `contract/`, records every call, and can stop answering to
// play an API that is down. `startApiStub()` points the console at it (API_URL) — call it in `vi.hoisted`,
// before the console's modules read their settings.
//
// The double is typed by the endpoints it stands in for (decision 131): `on(usersApi.userInfo, {data})`
// takes the endpoint's answer type, and a successful answer that does not parse with the endpoint's
// response schema is refused — at `on()` for a fixed answer, when it is sent for a computed one — so a
// stub cannot drift from what the API really answers.
import type { BodyIn, DataOf, Endpoint } from '#contract/http.ts'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

export type StubCall<B = unknown> = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: B }
/** The API's refusals (SPEC §8, DESIGN §4): `code` doubles as the HTTP status; `data` is free. */
type ErrorCode = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503 | 504
/** What a stubbed endpoint answers: its data (checked against its response schema), a refusal, or a proxy's non-JSON page. */
export type StubAnswer<E extends Endpoint> = { code?: 200 | 201; msg?: string; data: DataOf<E> } | { code: ErrorCode; msg: string; data?: unknown } | { raw: string; status: number }
/** An answer computed from the call (its body typed by the endpoint). */
type AnswerOf<E extends Endpoint> = (call: StubCall<BodyIn<E>>) => StubAnswer<E> | Promise<StubAnswer<E>>
type Handler = (call: StubCall) => StubAnswer<Endpoint> | Promise<StubAnswer<Endpoint>>

/** Throws unless a successful answer's data is what the endpoint's response schema allows. */
export function checkAnswer<E extends Endpoint>(e: E, answer: StubAnswer<E>): StubAnswer<E> {
  if ('raw' in answer || (answer.code !== undefined && answer.code !== 200 && answer.code !== 201)) return answer
  const parsed = e.response.safeParse(answer.data)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ')
    throw new Error(`stubbed answer of ${e.method} ${e.path} does not match its response schema: ${issues}`)
  }
  const extra = unknownKeys(answer.data, parsed.data)
  // The API's serializer drops what its schema does not name, so the console never sees such a field.
  if (extra.length) throw new Error(`stubbed answer of ${e.method} ${e.path} has fields its response schema does not name: ${extra.join(', ')}`)
  return answer
}

/** The paths of the keys of `sent` that parsing dropped (zod objects strip keys they do not name). */
function unknownKeys(sent: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((v, i) => unknownKeys(v, parsed[i], `${at}${i}.`))
  if (!isRecord(sent) || !isRecord(parsed)) return []
  return Object.keys(sent).flatMap((k) => (k in parsed ? unknownKeys(sent[k], parsed[k], `${at}${k}.`) : [`${at}${k}`]))
}
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export type ApiStub = Awaited<ReturnType<typeof startApiStub>>

export async function startApiStub() {
  const handlers = new Map<string, Handler>()
  const calls: StubCall[] = []
  const refused: Error[] = []
  afterEach(() => {
    const [first] = refused.splice(0)
    if (first) throw first
  })
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://stub')
      const text = Buffer.concat(chunks).toString('utf8')
      const call: StubCall = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: text ? JSON.parse(text) : undefined }
      calls.push(call)
      const handler = handlers.get(`${call.method} ${call.path}`)
      let answer: StubAnswer<Endpoint>
      try {
        answer = handler ? await handler(call) : { code: 404, msg: 'errors.notFound', data: null }
      } catch (error) {
        // A computed answer the endpoint could not give: the console sees a broken API, and the test that
        // asked for it fails after it ends (below) whatever the console made of it.
        refused.push(error as Error)
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
        return
      }
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
    /** Computed answers refused since the test began (each fails the test when it ends). */
    refused,
    /** Answers one endpoint (replacing an earlier answer); a successful answer must match its response schema. */
    on<E extends Endpoint>(e: E, answer: StubAnswer<E> | AnswerOf<E>) {
      const handler: Handler = typeof answer === 'function' ? async (call) => checkAnswer(e, await answer(call as StubCall<BodyIn<E>>)) : ((fixed) => () => fixed)(checkAnswer(e, answer))
      handlers.set(`${e.method} ${e.path}`, handler)
    },
    /** Answers a path outside the contract's JSON endpoints (the SSE stream), untyped. */
    onPath(route: `${'GET' | 'POST'} /api/${string}`, answer: StubAnswer<Endpoint>) {
      handlers.set(route, () => answer)
    },
    /** The calls that reached an endpoint (or a path outside the contract), oldest first. */
    callsTo: (target: Endpoint | string) => calls.filter((c) => c.path === (typeof target === 'string' ? target : target.path)),
    /** How many calls reached an endpoint (or a path outside the contract). */
    count: (target: Endpoint | string) => calls.filter((c) => c.path === (typeof target === 'string' ? target : target.path)).length,
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
