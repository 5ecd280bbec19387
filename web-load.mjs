// Load shedding for the console (issue 24, decision 141): past its capacity the console answers at once
// with 503, Retry-After and the "service busy" page, instead of queueing requests for tens of seconds.
// Three measures, all cheap: the page requests in flight in this process; how long they have been in
// flight (when half of them, and at least `minBehind`, have waited past `maxAgeMs`, the process is not
// keeping up, whatever a page costs — one slow export alone does not count); and the event loop's lag
// (a loop busy for longer than the limit has requests waiting unread in its sockets, which no counter
// sees). Static assets are served before this and never refused.
/**
 * @param {{ maxInFlight?: number, maxAgeMs?: number, minBehind?: number, maxLagMs?: number, retryAfterSeconds?: number, sampleMs?: number,
 *   exempt?: (req: import('express').Request) => boolean,
 *   refuse: (req: import('express').Request, res: import('express').Response, retryAfterSeconds: number) => unknown }} options
 */
export function loadShedder({ maxInFlight = 32, maxAgeMs = 500, minBehind = 8, maxLagMs = 1000, retryAfterSeconds = 5, sampleMs = 100, exempt = () => false, refuse }) {
  let inFlight = 0
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
  }, sampleMs)
  timer.unref()
  /** @type {import('express').RequestHandler} */
  const middleware = (req, res, next) => {
    // A long-lived stream is neither counted (it would hold a place for hours) nor refused (a browser's
    // EventSource gives up for good on a 503).
    if (exempt(req)) return next()
    const now = Date.now()
    if (inFlight >= maxInFlight || (maxLagMs > 0 && lagMs > maxLagMs) || behind(now)) {
      shed++
      return void refuse(req, res, retryAfterSeconds)
    }
    inFlight++
    const id = nextId++
    started.set(id, now)
    let done = false
    const end = () => {
      if (done) return
      done = true
      inFlight--
      started.delete(id)
    }
    res.once('finish', end)
    res.once('close', end)
    next()
  }
  return {
    middleware,
    stats: () => ({ inFlight, shed, lagMs }),
    close() {
      clearInterval(timer)
    },
  }
}

/** Sends a Fetch Response (the console's own refusal pages, built by the server entry) through Express. */
export async function sendResponse(res, response) {
  res.status(response.status)
  response.headers.forEach((value, name) => res.setHeader(name, value))
  res.send(await response.text())
}

/** The shedder as web-server.mjs configures it: WEB_MAX_IN_FLIGHT, WEB_MAX_AGE_MS, WEB_MAX_LAG_MS (0: no such limit). */
export function consoleShedder(busyRefusal) {
  const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback)
  return loadShedder({
    maxInFlight: num('WEB_MAX_IN_FLIGHT', 32),
    maxAgeMs: num('WEB_MAX_AGE_MS', 500),
    maxLagMs: num('WEB_MAX_LAG_MS', 1000),
    // The live events stream (app/routes/events.tsx) stays open as long as a page is. A data request
    // (`*.data`: a client navigation, a form or a fetcher of a page already open) is not refused either:
    // the browser's Remix cannot show the busy page for it and showed its 500 page instead (seen in CI on
    // the withdrawal preview). The overload is shed where it comes in: the page loads.
    exempt: (req) => req.path === '/events' || req.path.endsWith('.data'),
    refuse: (req, res, retryAfterSeconds) => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v)
      return busyRefusal(new Request('http://console.invalid/', { headers }), retryAfterSeconds).then((r) => sendResponse(res, r))
    },
  })
}
