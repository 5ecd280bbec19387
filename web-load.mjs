// Load shedding for the console (issue 24, decision 141): past its capacity the console answers at once
// with 503, Retry-After and the "service busy" page, instead of queueing requests for tens of seconds.
// Four measures, all cheap: the page requests in flight in this process, against a limit that follows
// the pages it has been finishing (below); how long they have been in flight (when half of them, and at
// least `minBehind`, have waited past `maxAgeMs`, the process is not keeping up, whatever a page costs —
// one slow export alone does not count); and the event loop's lag (a loop busy for longer than the limit
// has requests waiting unread in its sockets, which no counter sees). Static assets, data requests and
// live streams are never refused.
//
// The limit of pages in flight (decision 163), per kind of page (its route, `kindOf`): the pages of that
// kind this process finishes per second of being busy with them, times `targetMs`. Pages in flight share
// the CPU — they all advance together and finish together — so N of them in flight each take about
// N ÷ that rate: with the limit at rate × `targetMs`, an admitted page takes about `targetMs`, whatever
// it costs (a workplace of 40 ms of CPU, a share page of 5). A fixed limit of 32 let 32 workplaces share
// a core: every one of them took 1–2.5 s. Between `minBehind` and `maxInFlight` (which also bounds all
// kinds together); before a kind has been measured, `minBehind` and one more per page finished (a crowd
// meeting a fresh process, its code not yet compiled, would otherwise be admitted `maxInFlight` at a
// time, each page several times slower than later).
/**
 * @param {{ maxInFlight?: number, targetMs?: number, windowMs?: number, maxAgeMs?: number, minBehind?: number, maxLagMs?: number, retryAfterSeconds?: number, sampleMs?: number,
 *   exempt?: (req: import('node:http').IncomingMessage) => boolean, kindOf?: (req: import('node:http').IncomingMessage) => string }} options
 */
export function loadShedder({ maxInFlight = 64, targetMs = 0, windowMs = 2000, maxAgeMs = 500, minBehind = 8, maxLagMs = 1000, retryAfterSeconds = 5, sampleMs = 100, exempt = () => false, kindOf = () => '' } = {}) {
  let inFlight = 0
  const WINDOW = Math.max(1, Math.round(windowMs / sampleMs))
  /**
   * One kind of page (its route): its pages in flight and its limit. The rate: pages finished and
   * milliseconds with at least one of them in flight, per sample, over the last `windowMs`. Idle time
   * does not count: a process serving one page now and then still knows how fast it finishes them when
   * a crowd comes. Per kind, because Little's law holds per kind (each kind's pages in flight ÷ its rate
   * is its time), and a limit learnt from share pages (5 ms of CPU) let 64 workplaces (40 ms) in at once
   * when the crowd moved from one to the other: those took 2.5–5 s (the bench's load phase).
   */
  const pace = () => ({ inFlight: 0, limit: targetMs > 0 ? Math.min(minBehind, maxInFlight) : maxInFlight, measured: false, finished: [], busyMs: [], finishedNow: 0, busyNow: 0, busyFrom: null })
  /** @type {Map<string, ReturnType<typeof pace>>} */
  const kinds = new Map()
  const account = (k, now) => {
    // Busy time of this sample: stretches already ended (`busyNow`), and the one going on since `busyFrom`.
    let busy = k.busyNow
    if (k.busyFrom !== null) {
      busy += now - k.busyFrom
      k.busyFrom = now
    }
    k.busyNow = 0
    k.finished.push(k.finishedNow)
    k.busyMs.push(busy)
    k.finishedNow = 0
    if (k.finished.length > WINDOW) {
      k.finished.shift()
      k.busyMs.shift()
    }
    const totalBusy = k.busyMs.reduce((a, b) => a + b, 0)
    // Less than a tenth of a second of work is not a measure: the last one stands.
    if (targetMs > 0 && totalBusy >= 100) {
      const perSecond = (k.finished.reduce((a, b) => a + b, 0) * 1000) / totalBusy
      k.measured = true
      k.limit = Math.min(maxInFlight, Math.max(minBehind, Math.round((perSecond * targetMs) / 1000)))
    }
  }
  /** When each request in flight started, oldest first (a Map keeps insertion order). */
  const started = new Map()
  let nextId = 0
  // A few slow requests are not a queue: fewer than `minBehind` in flight wait at most a few renders
  // (8 workplace renders of ~150 ms: ~1.2 s). Below it, a console whose twin is restarting (it takes all
  // the load for a few seconds on a busy machine) was refusing 6 clients — the one instance left
  // answering 503 to the balancer (seen in the cluster test, decision 141's amendment).
  const behind = (now) => {
    if (maxAgeMs <= 0 || inFlight < minBehind) return false
    let old = 0
    for (const at of started.values()) {
      if (now - at <= maxAgeMs) break
      old++
    }
    return old * 2 >= inFlight
  }
  let shed = 0
  let lagMs = 0
  // The loop's lag: how late a timer due every `sampleMs` fires (perf_hooks' monitorEventLoopDelay was
  // tried first; its histogram did not show a 600 ms stall within seconds on Node 20).
  let due = Date.now() + sampleMs
  const timer = setInterval(() => {
    const now = Date.now()
    lagMs = Math.max(0, now - due)
    due = now + sampleMs
    for (const k of kinds.values()) account(k, now)
  }, sampleMs)
  timer.unref()
  /**
   * Whether a request may go on to the console (counted until its answer is sent or its client leaves),
   * or must be refused now.
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   */
  const admit = (req, res) => {
    // A long-lived stream is neither counted (it would hold a place for hours) nor refused (a browser's
    // EventSource gives up for good on a 503).
    if (exempt(req)) return true
    const now = Date.now()
    const kind = kindOf(req)
    let k = kinds.get(kind)
    if (!k) kinds.set(kind, (k = pace()))
    if (inFlight >= maxInFlight || k.inFlight >= k.limit || (maxLagMs > 0 && lagMs > maxLagMs) || behind(now)) {
      shed++
      return false
    }
    inFlight++
    if (k.inFlight++ === 0) k.busyFrom = now
    const id = nextId++
    started.set(id, now)
    let done = false
    const end = () => {
      if (done) return
      done = true
      inFlight--
      started.delete(id)
      k.finishedNow++
      // Until the first measure, each page finished lets one more in (a slow start): light pages reach
      // their limit within their first 100 ms of work, heavy ones barely move.
      if (!k.measured) k.limit = Math.min(maxInFlight, k.limit + 1)
      if (--k.inFlight === 0 && k.busyFrom !== null) {
        k.busyNow += Date.now() - k.busyFrom
        k.busyFrom = null
      }
    }
    res.once('finish', end)
    res.once('close', end)
    return true
  }
  return {
    admit,
    retryAfterSeconds,
    /** `limit`: the limit of one kind of page (the only one, without `kindOf`). */
    stats: (kind = '') => ({ inFlight, limit: kinds.get(kind)?.limit ?? pace().limit, shed, lagMs }),
    close() {
      clearInterval(timer)
    },
  }
}

/** A request's path, without its query, as Express's `req.path` reads it. */
export const pathOf = (req) => (req.url ?? '/').split('?', 1)[0]

/**
 * The shedder as web-server.mjs configures it: WEB_MAX_IN_FLIGHT, WEB_TARGET_MS, WEB_MAX_AGE_MS,
 * WEB_MAX_LAG_MS (0: no such limit). Only page loads are counted and refused (see `exempt`); `kindOf`:
 * a request's kind of page (web-server.mjs: its route pattern), each with its own limit.
 * @param {{ kindOf?: (req: import('node:http').IncomingMessage) => string }} [options]
 */
export function consoleShedder({ kindOf } = {}) {
  const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback)
  return loadShedder({
    maxInFlight: num('WEB_MAX_IN_FLIGHT', 64),
    targetMs: num('WEB_TARGET_MS', 500),
    maxAgeMs: num('WEB_MAX_AGE_MS', 500),
    maxLagMs: num('WEB_MAX_LAG_MS', 1000),
    kindOf,
    // Static files (`/assets/…`, `/favicon.ico`: a path that looks like a file) and `/metrics` are cheap
    // and never refused. The live events stream (app/routes/events.tsx) stays open as long as a page is.
    // A data request (`*.data`: a client navigation, a form or a fetcher of a page already open) is not
    // refused either: the browser's Remix cannot show the busy page for it and showed its 500 page
    // instead (seen in CI on the withdrawal preview). The overload is shed where it comes in: the page loads.
    exempt: (req) => {
      const path = pathOf(req)
      return path === '/events' || path === '/metrics' || path.endsWith('.data') || /\.[a-z0-9]+$/i.test(path)
    },
  })
}

/**
 * The console's HTTP handler: a request the shedder refuses is answered here, before Express and Remix,
 * with the busy page of the visitor's language rendered once at start (decision 163: built per refusal
 * through Express and a Fetch `Response`, the refusals cost the console more CPU than the pages it
 * served); every other request goes on to `app`.
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} app
 * @param {{ shedder: ReturnType<typeof loadShedder>, pages: Record<string, string>, localeOf: (cookie: string | undefined) => Promise<string>,
 *   headers?: () => Record<string, string>, refused?: (req: import('node:http').IncomingMessage, startedAt: bigint) => void }} options
 */
export function shedding(app, { shedder, pages, localeOf, headers = () => ({}), refused = () => {} }) {
  const bodies = Object.fromEntries(Object.entries(pages).map(([locale, page]) => [locale, Buffer.from(page)]))
  const refuse = async (req, res) => {
    const startedAt = process.hrtime.bigint()
    let body
    try {
      body = bodies[await localeOf(req.headers.cookie)]
    } catch {}
    body ??= Object.values(bodies)[0]
    res.writeHead(503, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
      'retry-after': String(shedder.retryAfterSeconds),
      ...headers(),
    })
    res.end(req.method === 'HEAD' ? undefined : body)
    refused(req, startedAt)
  }
  return (req, res) => (shedder.admit(req, res) ? app(req, res) : void refuse(req, res))
}
