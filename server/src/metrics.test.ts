// `/metrics` (issue 22, decision 137): Prometheus text with requests by route pattern and status, the
// live streams, notifies by outcome, the withdrawal queue and the database pool; loopback or token only.
import type { AddressInfo } from 'node:net'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENTS_PATH } from '#contract/messages.ts'
import { HEALTH_PATH } from '#contract/http.ts'
import { withdrawals } from './db/schema/index.ts'
import { Counter, Histogram, Registry } from 'prom-client'
import { METRICS_PATH, RequestSeries } from './metrics.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, type TestApp } from '../test/helpers.ts'
import { readEvents } from '../test/sse.ts'

/** The value of one series in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const m = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) continue
    const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[2])
  }
  return 0
}

describe('the request series (decision 150: counted in a map, read at scrape time)', () => {
  it("write the same Prometheus text as prom-client's own Counter and Histogram", async () => {
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    const ours = new Registry()
    const series = new RequestSeries(buckets)
    series.register(ours)
    const theirs = new Registry()
    const labelNames = ['method', 'route', 'status']
    const counter = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames, registers: [theirs] })
    const histogram = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and status', labelNames, buckets, registers: [theirs] })
    const seen: [string, string, number, number][] = [
      ['GET', '/api/share', 200, 0.0004],
      ['GET', '/api/share', 200, 0.01],
      ['GET', '/api/share', 200, 0.7],
      ['GET', '/api/share', 404, 0.002],
      ['POST', '/api/payments/:provider/notify', 200, 12],
      ['GET', 'unmatched', 404, 0.001],
    ]
    for (const [method, route, status, seconds] of seen) {
      series.observe(method, route, status, seconds)
      const labels = { method, route, status: String(status) }
      counter.inc(labels)
      histogram.observe(labels, seconds)
    }
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })
})

describe('GET /metrics', () => {
  let t: TestApp
  let base: string
  beforeAll(async () => {
    t = await buildTestApp()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  })
  afterAll(() => t.close())
  const scrape = async () => {
    const res = await fetch(`${base}${METRICS_PATH}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    return res.text()
  }

  it('counts requests by route pattern and status, with latency, beside the process metrics', async () => {
    const before = await scrape()
    expect(sample(before, 'process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(before).toContain('nodejs_eventloop_lag_seconds')
    const call = async (url: string, init?: RequestInit) => (await fetch(url, init)).text()
    await call(`${base}${HEALTH_PATH}`)
    await call(`${base}${HEALTH_PATH}`)
    await call(`${base}/api/no/such/thing`)
    // A parametric route is counted under its pattern, not the URL asked.
    await call(`${base}/api/payments/sandbox/notify`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'forged' })
    const health = { method: 'GET', route: HEALTH_PATH, status: '200' }
    // A request is counted once its response has gone out, a moment after the client read it.
    await expect.poll(async () => sample(await scrape(), 'http_requests_total', health) - sample(before, 'http_requests_total', health)).toBe(2)
    const after = await scrape()
    expect(sample(after, 'http_request_duration_seconds_count', health) - sample(before, 'http_request_duration_seconds_count', health)).toBe(2)
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(sample(after, 'http_requests_total', health))
    expect(sample(after, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(after).not.toContain('/api/no/such/thing')
    const notify = { method: 'POST', route: '/api/payments/:provider/notify' }
    expect(sample(after, 'http_requests_total', notify)).toBeGreaterThanOrEqual(1)
    expect(after).not.toContain('route="/api/payments/sandbox/notify"')
    const rejected = { provider: 'sandbox', outcome: 'rejected' }
    expect(sample(after, 'payshare_payment_notifies_total', rejected) - sample(before, 'payshare_payment_notifies_total', rejected)).toBe(1)
  })

  it('reports open live streams, the withdrawal queue and the database pool', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD)
    const before = sample(await scrape(), 'payshare_sse_streams')
    const stream = readEvents(`${base}${EVENTS_PATH}`, bearer(token))
    expect(await stream.ready).toBe(200)
    expect(sample(await scrape(), 'payshare_sse_streams')).toBe(before + 1)
    stream.close()
    await new Promise((r) => setTimeout(r, 100))
    expect(sample(await scrape(), 'payshare_sse_streams')).toBe(before)

    // The queue is read at scrape time: one more pending withdrawal shows at once.
    const queued = sample(await scrape(), 'payshare_withdrawals_pending')
    const seller = await createUser(t.db)
    await t.db.insert(withdrawals).values({ userId: seller.id, amountFen: 2000, feeFen: 20, actualFen: 1980, alipayAccount: 'a@example.com', alipayRealName: 'Zhang San' })
    const [pending] = await t.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.status, 'Pending'))
    const text = await scrape()
    expect(sample(text, 'payshare_withdrawals_pending')).toBe(queued + 1)
    expect(sample(text, 'payshare_withdrawals_pending')).toBe(pending!.n)
    if (t.driver === 'pg') expect(sample(text, 'payshare_db_pool_connections', { driver: 'pg', state: 'total' })).toBeGreaterThan(0)
    else expect(sample(text, 'payshare_db_pool_connections', { driver: 'pglite', state: 'total' })).toBe(1)
  })

  it('answers 404 to a caller behind a proxy, and with METRICS_TOKEN to anyone without it', async () => {
    const proxied = await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(proxied.statusCode).toBe(404)
    const remote = await t.app.inject({ method: 'GET', url: METRICS_PATH, remoteAddress: '203.0.113.9' })
    expect(remote.statusCode).toBe(404)
    t.app.config.metricsToken = 'a-long-enough-metrics-token'
    try {
      expect((await t.app.inject({ method: 'GET', url: METRICS_PATH })).statusCode).toBe(404)
      expect((await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: bearer('wrong-token-of-some-length') })).statusCode).toBe(404)
      const ok = await t.app.inject({ method: 'GET', url: METRICS_PATH, remoteAddress: '203.0.113.9', headers: bearer('a-long-enough-metrics-token') })
      expect(ok.statusCode).toBe(200)
      expect(ok.body).toContain('http_requests_total')
    } finally {
      t.app.config.metricsToken = undefined
    }
  })
})
