// Operating the console (issue 22): `/metrics` counts requests by page pattern and status, loopback
// only; SIGTERM finishes the request in flight, ends the live stream with the reconnect hint and exits
// within 10 s. A second console of this run's build, in front of this run's API.
import http from 'node:http'
import path from 'node:path'
import { messagesApi, SSE_GOODBYE } from '#contract/messages.ts'
import { API_URL, DATA_DIR, DEMO_PASSWORD, WEB_PORT } from './env.ts'
import { expect, loginAs, test } from './fixtures.ts'
import { ROOT, startServer } from './second-server.ts'

/** The value of one series in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const m = /^([^{ ]+)\{(.*)\} (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3])
  }
  return 0
}

test('the console: /metrics by page pattern, and a graceful stop', async ({ context }) => {
  test.setTimeout(90_000)
  const port = WEB_PORT + 60
  const origin = `http://localhost:${port}`
  // One process here; the next test scrapes a console of two workers.
  const env = { PORT: String(port), HOST: '127.0.0.1', API_URL, DATA_DIR, NODE_ENV: 'production', WEB_CONCURRENCY: '1' }
  const server = await startServer(process.execPath, [path.join(ROOT, 'web-server.mjs')], env, port)
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)))
  try {
    const scrape = async () => {
      const res = await fetch(`${origin}/metrics`)
      expect(res.status).toBe(200)
      return res.text()
    }
    const before = await scrape()
    expect(before).toContain('process_cpu_user_seconds_total')
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${origin}/login`)
      expect(res.status).toBe(200)
      await res.text()
    }
    await (await fetch(`${origin}/share/Zz9Zz9Zz`)).text()
    const login = { method: 'GET', route: '/login', status: '200' }
    // A request is counted once its response has gone out ('finish'), a moment after the client read it.
    await expect.poll(async () => sample(await scrape(), 'http_requests_total', login) - sample(before, 'http_requests_total', login)).toBe(2)
    const after = await scrape()
    expect(sample(after, 'http_request_duration_seconds_count', login) - sample(before, 'http_request_duration_seconds_count', login)).toBe(2)
    expect(after).toMatch(/http_requests_total\{method="GET",route="\/share\/:unicode",status="\d+"\} 1/)
    expect(after).not.toContain('Zz9Zz9Zz')
    // Not for a caller behind a proxy.
    expect((await fetch(`${origin}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(404)

    // A live stream through this console, with a logged-in session.
    await loginAs(context, 'demo_buyer', DEMO_PASSWORD)
    const cookie = (await context.cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ')
    let stream = ''
    const streamEnded = new Promise<void>((resolve, reject) => {
      http
        .get(`${origin}/events`, { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
          expect(res.statusCode).toBe(200)
          res.setEncoding('utf8')
          res.on('data', (c: string) => (stream += c))
          res.on('end', resolve)
        })
        .on('error', reject)
    })
    await expect.poll(() => stream).toContain('retry: 3000')
    // A request in flight: its headers and half its form are in before the signal, the rest after it.
    const form = 'username=demo_buyer&password=wrong-password&intent=login'
    let slowStatus = 0
    const slow = http.request(`${origin}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form), origin },
    })
    const slowDone = new Promise<void>((resolve, reject) => {
      slow.on('response', (res) => {
        slowStatus = res.statusCode ?? 0
        res.resume()
        res.on('end', resolve)
      })
      slow.on('error', reject)
    })
    slow.write(form.slice(0, 12))
    await new Promise((r) => setTimeout(r, 300))

    const signalled = Date.now()
    server.kill('SIGTERM')
    await streamEnded
    expect(stream.endsWith(SSE_GOODBYE)).toBe(true)
    slow.end(form.slice(12))
    await slowDone
    expect(slowStatus).toBe(400)
    expect(await exited).toBe(0)
    expect(Date.now() - signalled).toBeLessThan(10_000)
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL')
  }
})

test('the console of two workers: a scrape counts the requests every worker answered', async () => {
  test.setTimeout(60_000)
  const port = WEB_PORT + 62
  const origin = `http://localhost:${port}`
  const env = { PORT: String(port), HOST: '127.0.0.1', API_URL, DATA_DIR, NODE_ENV: 'production', WEB_CONCURRENCY: '2' }
  const server = await startServer(process.execPath, [path.join(ROOT, 'web-server.mjs')], env, port)
  try {
    const scrape = async () => {
      const res = await fetch(`${origin}/metrics`)
      expect(res.status).toBe(200)
      return res.text()
    }
    const login = { method: 'GET', route: '/login', status: '200' }
    // The port answers once the first worker listens; the scrape asks every worker, so until the second
    // has started it is answered 503 (a busy machine: flaky in CI, 27 and 28 Nov). Prometheus asks again.
    let first = ''
    await expect
      .poll(
        async () => {
          const res = await fetch(`${origin}/metrics`)
          first = await res.text()
          return res.status
        },
        { timeout: 20_000 },
      )
      .toBe(200)
    const before = sample(first, 'http_requests_total', login)
    // New connections each: the first process hands them to its workers in turn.
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${origin}/login`, { headers: { connection: 'close' } })
      expect(res.status).toBe(200)
      await res.text()
    }
    await expect.poll(async () => sample(await scrape(), 'http_requests_total', login) - before).toBe(6)
    // Every later scrape, whichever worker takes it, says the same.
    for (let i = 0; i < 4; i++) {
      const text = await scrape()
      expect(sample(text, 'http_requests_total', login) - before).toBe(6)
      expect(text).toContain('process_cpu_user_seconds_total')
    }
  } finally {
    server.kill('SIGTERM')
  }
})

test('a browser whose console restarts gets the live events published meanwhile, once each', async ({ context, page, api }) => {
  test.setTimeout(90_000)
  const port = WEB_PORT + 61
  const origin = `http://localhost:${port}`
  const env = { PORT: String(port), HOST: '127.0.0.1', API_URL, DATA_DIR, NODE_ENV: 'production' }
  const consoleArgs = [path.join(ROOT, 'web-server.mjs')]
  let server = await startServer(process.execPath, consoleArgs, env, port)
  try {
    // A user of its own: nothing else writes to it while the test counts its events.
    const user = await api.createUser('email', 'replay')
    await loginAs(context, user)
    // A page of that console that runs no script of its own (a visitor page, decision 099): the
    // console's scripts may reload a page while the console is down (route discovery failing), and the
    // counts below live in the page (flaky in CI, 28 Nov: the page reloaded, the counts were gone).
    const visitorPage = await page.goto(`${origin}/share/ZZZZZZZZ`)
    expect(visitorPage?.status()).toBe(404)
    expect(await page.locator('script[type="module"]').count()).toBe(0)
    // An EventSource on the console's /events, as the console's scripts open it.
    await page.evaluate(() => {
      const w = window as unknown as { got: string[]; opened: number }
      w.got = []
      w.opened = 0
      const source = new EventSource('/events')
      source.addEventListener('open', () => w.opened++)
      source.addEventListener('message', (ev) => w.got.push((JSON.parse((ev as MessageEvent<string>).data) as { message: { content: string } }).message.content))
    })
    const got = () => page.evaluate(() => (window as unknown as { got: string[] }).got)
    const opened = () => page.evaluate(() => (window as unknown as { opened: number }).opened)
    await expect.poll(opened).toBe(1)
    const token = await api.adminToken()
    const send = (content: string) => api.ok(messagesApi.adminSend, { token, body: { username: user.user_name, content } })
    await send('before the restart')
    await expect.poll(got).toEqual(['before the restart'])

    const exited = new Promise((resolve) => server.on('exit', resolve))
    server.kill('SIGTERM')
    await exited
    await send('while the console was down')
    server = await startServer(process.execPath, consoleArgs, env, port)
    // EventSource reconnects by itself with Last-Event-ID and is sent what it missed.
    await expect.poll(got, { timeout: 20_000 }).toEqual(['before the restart', 'while the console was down'])
    await send('after the restart')
    await expect.poll(got).toEqual(['before the restart', 'while the console was down', 'after the restart'])
    expect(await opened()).toBeGreaterThanOrEqual(2)
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL')
  }
})
