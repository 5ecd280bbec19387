// Serves the built console: static assets, then Remix. Like remix-serve, plus the client's address in
// X-Forwarded-For so the API sees who logs in (login records, per-IP limits).
import crypto from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import compression from 'compression'
import express from 'express'
import { consoleMetrics, firstServer, runAsClusterPrimary } from './web-cluster.mjs'
import { consoleShedder, pathOf, shedding } from './web-load.mjs'
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'

// One process per core (WEB_CONCURRENCY): the first one only forks and watches the workers, which run the rest.
await runAsClusterPrimary()

const root = path.dirname(fileURLToPath(import.meta.url))
const build = await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '0.0.0.0'
// Whose X-Forwarded-For to believe, as the API's TRUST_PROXY reads it (decision 106): unset or 'false',
// nobody (the socket is the client); a number, that many proxies in front (behind one load balancer:
// 1); addresses or subnets ('loopback', '10.0.0.0/8'); 'true', any hop — the left-most address, which
// the client itself may have written unless the proxy in front replaces the header.
const TRUST_PROXY = process.env.TRUST_PROXY ?? 'false'
const trustProxy = TRUST_PROXY === 'true' ? true : TRUST_PROXY === 'false' || TRUST_PROXY === '' ? false : /^\d+$/.test(TRUST_PROXY) ? Number(TRUST_PROXY) : TRUST_PROXY

/** The signal (SIGTERM / SIGINT) that started the graceful stop at the end of this file. */
let stopping = null

// ---- /metrics (issue 22, decision 137): requests by route pattern and status, and Node's own ----
const registry = new Registry()
collectDefaultMetrics({ register: registry })
const labelNames = ['method', 'route', 'status']
const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames, registers: [registry] })
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request (a live stream: until it ends), by route pattern and status',
  labelNames,
  // Prometheus's default buckets, and one at 2 s: the pages' target under load (issue 24), so that a p99
  // read from this histogram (the bench's served pages) says whether it is met.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10],
  registers: [registry],
})
/** Every worker's counts added up (WEB_CONCURRENCY > 1), or this process's. */
const metricsText = consoleMetrics(registry)

/** The console's URL patterns (`/share/:unicode/chat`), from the build's route tree, most specific first. */
const patterns = (() => {
  const full = (route) => {
    const parts = []
    for (let r = route; r; r = r.parentId ? build.routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path)
    return `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1')
  }
  const score = (seg) => (seg === '*' ? 1 : seg.startsWith(':') ? (seg.endsWith('?') ? 2 : 3) : seg.endsWith('?') ? 9 : 10)
  const list = new Map()
  for (const route of Object.values(build.routes)) if (route.path !== undefined || route.index) list.set(full(route), null)
  return [...list.keys()]
    .map((pattern) => ({ pattern, segments: pattern.split('/').filter(Boolean) }))
    .sort((a, b) => b.segments.reduce((n, s) => n + score(s), 0) - a.segments.reduce((n, s) => n + score(s), 0))
})()

function matches(segments, path) {
  if (!segments.length) return !path.length
  const [seg, ...rest] = segments
  if (seg === '*') return true
  const optional = seg.endsWith('?')
  const name = optional ? seg.slice(0, -1) : seg
  const head = path[0]
  const fits = head !== undefined && (name.startsWith(':') || name.toLowerCase() === head.toLowerCase())
  return (fits && matches(rest, path.slice(1))) || (optional && matches(rest, path))
}

/** A request's route label: its page's pattern (a `.data` request counts as its page), never the raw URL. */
function routeOf(pathname) {
  if (pathname === '/metrics') return '/metrics'
  if (pathname.startsWith('/assets/')) return '/assets/*'
  const page = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '')
  let path
  try {
    path = page.split('/').filter(Boolean).map(decodeURIComponent)
  } catch {
    return 'unmatched'
  }
  for (const p of patterns) if (matches(p.segments, path)) return p.pattern
  return /\.[a-z0-9]+$/i.test(pathname) ? 'static' : 'unmatched'
}

/** As the API decides: METRICS_TOKEN as a bearer token, else a direct loopback caller (no proxy header). */
function mayScrape(req) {
  const token = process.env.METRICS_TOKEN
  if (token) {
    const given = Buffer.from(req.headers.authorization ?? '')
    const wanted = Buffer.from(`Bearer ${token}`)
    return given.length === wanted.length && crypto.timingSafeEqual(given, wanted)
  }
  const peer = req.socket.remoteAddress ?? ''
  const loopback = peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.')
  return loopback && !req.headers['x-forwarded-for'] && !req.headers['x-real-ip'] && !req.headers.forwarded
}

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', trustProxy)
/** A request's route label, found once: the load shedder asks first (its kinds of pages), /metrics after. */
const routeLabelOf = (req) => (req.routeLabel ??= routeOf(pathOf({ url: req.originalUrl ?? req.url })))
/** Counts an answer in /metrics, under its page's pattern. */
const observe = (req, status, start) => {
  const labels = { method: req.method, route: routeLabelOf(req), status: String(status) }
  requests.inc(labels)
  duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9)
}
app.use((req, res, next) => {
  const start = process.hrtime.bigint()
  res.once('finish', () => observe(req, res.statusCode, start))
  next()
})
app.get('/metrics', async (req, res) => {
  if (!mayScrape(req)) return res.status(404).type('text/plain').send('Not Found')
  try {
    res.type(registry.contentType).send(await metricsText())
  } catch (err) {
    res.status(503).type('text/plain').send(String(err.message))
  }
})
app.use((_req, res, next) => {
  // While stopping, a keep-alive connection is not kept for another request.
  if (stopping) res.setHeader('connection', 'close')
  next()
})
app.use(compression())
app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }))
// Other public files (favicon…): only paths that look like files, so page requests never touch the disk.
const publicFiles = express.static(path.join(root, 'build/client'), { maxAge: '1h', index: false })
app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()))
app.use((req, _res, next) => {
  // One address, the client as the trusted proxies report it (Express's req.ip by `trust proxy`), is what
  // the console and the API see: a chain would let the client's own entries through (issue 20: visits
  // counted per made-up X-Forwarded-For).
  req.headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? ''
  next()
})
// A form posted from another site is answered 403 here, in the visitor's language, before any action
// runs: Remix refuses it too, but with a bare 500 (issue 20). The check is the console's own
// (app/.server/request.ts, exported by the server entry).
const { crossSiteRefusal, busyPages, localeOfCookies } = build.entry.module
app.use(async (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next()
  let refusal = null
  try {
    // Only the method and the headers matter (Origin, Sec-Fetch-Site, Host, the locale cookie).
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v)
    refusal = await crossSiteRefusal(new Request('http://console.invalid/', { method: req.method, headers }))
  } catch {
    // A request Fetch cannot even express (a method it forbids): Remix answers it as before.
  }
  if (!refusal) return next()
  res.status(refusal.status)
  refusal.headers.forEach((value, name) => res.setHeader(name, value))
  res.send(await refusal.text())
})
app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV }))
// Past its capacity the console says so at once (503, Retry-After) rather than queueing: the refusal is
// answered before Express, from a page rendered once per language (web-load.mjs, decision 163).
const shedder = consoleShedder({ kindOf: routeLabelOf })
const handler = shedding(app, {
  shedder,
  pages: await busyPages(shedder.retryAfterSeconds),
  localeOf: localeOfCookies,
  // While stopping, a keep-alive connection is not kept for another request.
  headers: () => (stopping ? { connection: 'close' } : {}),
  refused: (req, start) => observe(req, 503, start),
})
const server = http.createServer(handler).listen(port, host, () => firstServer() && console.log(`Console on http://localhost:${port}`))
// Idle keep-alive connections stay open longer than a client or proxy keeps its own (Node's 5 s default
// closes a socket just as a client reuses it: the client reads ECONNRESET on a request it never sent).
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
// A graceful stop (SIGTERM, Ctrl-C; decision 137): stop accepting, let the requests in flight finish,
// end the live streams with a reconnect hint, close keep-alive connections as they fall idle, and exit;
// past the deadline, exit anyway.
const STOP_DEADLINE_MS = 8_000
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The same signal again (Ctrl-C twice): stop now. Another one (npm start passes SIGTERM on after the
    // terminal's SIGINT): already stopping.
    if (stopping === signal) process.exit(1)
    if (stopping) return
    stopping = signal
    console.log(`${signal}: stopping (requests in flight finish, live streams are told to reconnect)`)
    setTimeout(() => {
      console.error(`still stopping after ${STOP_DEADLINE_MS} ms: exiting with requests open`)
      process.exit(1)
    }, STOP_DEADLINE_MS).unref()
    server.close(() => process.exit(0))
    build.entry.module.drainLiveStreams()
    setInterval(() => server.closeIdleConnections(), 100).unref()
  })
}
