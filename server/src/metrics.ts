import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import pg from 'pg'
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import { countPendingWithdrawals } from './modules/withdrawals/index.ts'

/**
 * The API's Prometheus metrics (issue 22, decision 137), one set per process: the modules count what
 * they do through `metrics`, and `GET /metrics` answers them with Node's own (prom-client defaults).
 */
const registry = new Registry()
collectDefaultMetrics({ register: registry })

export const METRICS_PATH = '/metrics'

/**
 * The answered requests, counted per (method, route pattern, status) in a plain map and read by
 * prom-client only at scrape time: its Counter and Histogram hash a label object on every call, 3.6% of
 * the API's time under load on GET /api/share (decision 150). Exposed as prom-client's own
 * `http_requests_total` counter and `http_request_duration_seconds` histogram would be.
 */
export class RequestSeries {
  private series = new Map<string, { labels: { method: string; route: string; status: string }; count: number; sum: number; buckets: number[] }>()
  constructor(private bounds: number[]) {}

  observe(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${route} ${status}`
    let s = this.series.get(key)
    if (!s) {
      s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: this.bounds.map(() => 0) }
      this.series.set(key, s)
    }
    s.count++
    s.sum += seconds
    const i = this.bounds.findIndex((b) => seconds <= b)
    if (i >= 0) s.buckets[i]!++
  }

  /** The two metrics, in the shape prom-client's registry reads from its own (`get()`). */
  register(registry: Registry) {
    const all = () => [...this.series.values()]
    const counter = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      get: async () => ({ name: counter.name, help: counter.help, type: 'counter', aggregator: 'sum', values: all().map((s) => ({ value: s.count, labels: s.labels })) }),
      reset: () => this.series.clear(),
    }
    const histogram = {
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and status',
      get: async () => ({
        name: histogram.name,
        help: histogram.help,
        type: 'histogram',
        aggregator: 'sum',
        values: all().flatMap((s) => {
          let acc = 0
          return [
            ...this.bounds.map((le, i) => ({ value: (acc += s.buckets[i]!), labels: { le, ...s.labels }, metricName: `${histogram.name}_bucket` })),
            { value: s.count, labels: { le: '+Inf', ...s.labels }, metricName: `${histogram.name}_bucket` },
            { value: s.sum, labels: s.labels, metricName: `${histogram.name}_sum` },
            { value: s.count, labels: s.labels, metricName: `${histogram.name}_count` },
          ]
        }),
      }),
      reset: () => this.series.clear(),
    }
    for (const m of [counter, histogram]) registry.registerMetric(m as unknown as Parameters<Registry['registerMetric']>[0])
  }
}

const requestSeries = new RequestSeries([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
requestSeries.register(registry)

export const metrics = {
  sseStreams: new Gauge({ name: 'payshare_sse_streams', help: 'Live event (SSE) streams open on this instance', registers: [registry] }),
  paymentNotifies: new Counter({ name: 'payshare_payment_notifies_total', help: 'Payment notifications by gateway and outcome (rejected: bad signature or foreign)', labelNames: ['provider', 'outcome'], registers: [registry] }),
  refundNotifies: new Counter({ name: 'payshare_refund_notifies_total', help: 'Refund notifications by gateway and outcome', labelNames: ['provider', 'outcome'], registers: [registry] }),
  refunds: new Counter({ name: 'payshare_refunds_total', help: "Refund states recorded from a gateway's answer: pending, done, failed", labelNames: ['outcome'], registers: [registry] }),
  sweeps: new Counter({ name: 'payshare_sweep_runs_total', help: 'Minute sweeps run by this instance', registers: [registry] }),
  dbPool: new Gauge({ name: 'payshare_db_pool_connections', help: 'Database connections: total, idle, and callers waiting for one (PGlite: one connection, its queue)', labelNames: ['driver', 'state'], registers: [registry] }),
  withdrawalQueue: new Gauge({ name: 'payshare_withdrawals_pending', help: 'Withdrawals waiting for an admin (read at scrape time)', registers: [registry] }),
}

/** Reads the gauges that live in the database or its driver, for one scrape. */
async function readGauges(app: FastifyInstance) {
  const client = (app.db as unknown as { $client?: unknown }).$client
  if (client instanceof pg.Pool) {
    metrics.dbPool.set({ driver: 'pg', state: 'total' }, client.totalCount)
    metrics.dbPool.set({ driver: 'pg', state: 'idle' }, client.idleCount)
    metrics.dbPool.set({ driver: 'pg', state: 'waiting' }, client.waitingCount)
  } else {
    // PGlite: one connection in the process; queries take turns on it.
    metrics.dbPool.set({ driver: 'pglite', state: 'total' }, 1)
  }
  try {
    metrics.withdrawalQueue.set(await countPendingWithdrawals(app.db))
  } catch (err) {
    app.log.error({ err }, 'metrics: counting pending withdrawals failed')
  }
}

/**
 * Who may read `/metrics` (decision 137): with METRICS_TOKEN, whoever sends it as a bearer token; without
 * it, only a direct caller on the loopback address (no proxy header: nginx and the console add one).
 * Anyone else is told there is nothing here.
 */
export function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from(request.headers.authorization ?? '')
    const wanted = Buffer.from(`Bearer ${token}`)
    return given.length === wanted.length && crypto.timingSafeEqual(given, wanted)
  }
  const peer = request.socket.remoteAddress ?? ''
  const loopback = peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.')
  return loopback && !request.headers['x-forwarded-for'] && !request.headers['x-real-ip'] && !request.headers.forwarded
}

/** Counts every answered request by its route pattern (never the raw URL), and serves `GET /metrics`. */
export function registerMetrics(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    requestSeries.observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    done()
  })
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, app.config.metricsToken)) return reply.code(404).type('text/plain').send('Not Found')
    await readGauges(app)
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}
