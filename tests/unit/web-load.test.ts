// The console's load shedder (web-load.mjs, decisions 141 and 163): past the limit of page requests in
// flight, a request is answered at once with 503, Retry-After and the busy page in the visitor's
// language, before the app sees it — the same wiring web-server.mjs uses, on a real HTTP server.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { consoleShedder, loadShedder, pathOf, shedding } from '../../web-load.mjs'

vi.hoisted(() => {
  process.env.SESSION_SECRET ||= 'console-tests-session-secret'
})
const { busyPages } = await import('../../app/.server/request.ts')
const { localeOfCookies } = await import('../../app/.server/i18n.ts')

const closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
  delete process.env.WEB_MAX_IN_FLIGHT
  delete process.env.WEB_TARGET_MS
})

/**
 * A server whose pages wait until released (`/page`), or answer after `?ms=` milliseconds (`/timed`):
 * requests stay in flight as long as the test wants. `seen`: the paths the app was asked for.
 */
async function serve(shedder: ReturnType<typeof loadShedder>) {
  const waiting: (() => void)[] = []
  const seen: string[] = []
  const refused: string[] = []
  const app = express()
  app.use((req, _res, next) => {
    seen.push(req.path)
    next()
  })
  app.get('/page', (_req, res) => void waiting.push(() => res.send('page')))
  app.get('/timed', (req, res) => void setTimeout(() => res.send('page'), Number(req.query.ms)))
  app.get('/events', (_req, res) => void waiting.push(() => res.send('stream')))
  app.get('/page.data', (_req, res) => void waiting.push(() => res.send('data')))
  app.get('/assets/app.js', (_req, res) => void waiting.push(() => res.send('js')))
  const handler = shedding(app, { shedder, pages: await busyPages(shedder.retryAfterSeconds), localeOf: localeOfCookies, refused: (req) => void refused.push(pathOf(req)) })
  const server = http.createServer(handler).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  closers.push(() => {
    shedder.close()
    server.closeAllConnections()
    server.close()
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`
  const releaseAll = () => waiting.splice(0).forEach((release) => release())
  const inFlight = async (n: number) => {
    while (waiting.length < n) await new Promise((r) => setTimeout(r, 5))
  }
  return { url, releaseAll, inFlight, seen, refused }
}

/** Pages of `ms` milliseconds, one at a time for `forMs`; then a window (500 ms) of rest, after which the measure stands. */
async function timedPages(url: string, ms: number, forMs: number) {
  const until = Date.now() + forMs
  while (Date.now() < until) expect((await fetch(`${url.replace('/page', '/timed')}?ms=${ms}`)).status).toBe(200)
  // Idle time does not count: with less than 100 ms of work left in the window, the last measure stands.
  await new Promise((r) => setTimeout(r, 600))
}

describe('the console sheds load past its limit', () => {
  it('answers 503 with Retry-After and the busy text once the limit is in flight, and serves again after', async () => {
    process.env.WEB_MAX_IN_FLIGHT = '3'
    const shedder = consoleShedder()
    const { url, releaseAll, inFlight, seen, refused: counted } = await serve(shedder)
    const held = [fetch(url), fetch(url), fetch(url)]
    await inFlight(3)

    const refused = await fetch(url, { headers: { cookie: 'ps_lng=en-US' } })
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(refused.headers.get('cache-control')).toBe('no-store')
    const page = await refused.text()
    expect(page).toContain('Service temporarily unavailable')
    expect(page).toContain('Too many visitors right now. This page tries again by itself in a few seconds.')
    // Chinese by default.
    expect(await (await fetch(url)).text()).toContain('当前访问人数过多，页面将在几秒后自动重试。')
    // A HEAD is refused without a body.
    const head = await fetch(url, { method: 'HEAD' })
    expect([head.status, await head.text()]).toEqual([503, ''])
    expect(shedder.stats()).toMatchObject({ inFlight: 3, shed: 3 })
    // The refusals never reached the app (Express, Remix): only counted, for /metrics.
    expect(seen).toEqual(['/page', '/page', '/page'])
    expect(counted).toEqual(['/page', '/page', '/page'])
    // Static files are not refused.
    const asset = fetch(url.replace('/page', '/assets/app.js'))
    await inFlight(4)

    releaseAll()
    expect((await Promise.all([...held, asset])).map((r) => r.status)).toEqual([200, 200, 200, 200])
    const again = fetch(url)
    await inFlight(1)
    releaseAll()
    expect(await (await again).text()).toBe('page')
    expect(shedder.stats().inFlight).toBe(0)
  })

  it('the live events stream is never counted nor refused: open streams leave pages their places', async () => {
    process.env.WEB_MAX_IN_FLIGHT = '2'
    const shedder = consoleShedder()
    const { url, releaseAll, inFlight } = await serve(shedder)
    const streams = [1, 2, 3, 4].map(() => fetch(url.replace('/page', '/events')))
    await inFlight(4)
    expect(shedder.stats().inFlight).toBe(0)
    const pages = [fetch(url), fetch(url)]
    await inFlight(6)
    expect((await fetch(url)).status).toBe(503)
    // Even past the limit a new stream still opens.
    const late = fetch(url.replace('/page', '/events'))
    await inFlight(7)
    releaseAll()
    expect((await Promise.all([...streams, ...pages, late])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200])
  })

  it("a page's data request (client navigation, form, fetcher) is never refused: the browser could only show an error for it", async () => {
    process.env.WEB_MAX_IN_FLIGHT = '1'
    const shedder = consoleShedder()
    const { url, releaseAll, inFlight } = await serve(shedder)
    const page = fetch(url)
    await inFlight(1)
    expect((await fetch(url)).status).toBe(503)
    const data = fetch(`${url}.data`)
    await inFlight(2)
    releaseAll()
    expect((await Promise.all([page, data])).map((r) => r.status)).toEqual([200, 200])
  })

  it('a request the client gave up on frees its place', async () => {
    const shedder = loadShedder({ maxInFlight: 1, maxLagMs: 0 })
    const { url, releaseAll, inFlight } = await serve(shedder)
    const aborted = new AbortController()
    const gone = fetch(url, { signal: aborted.signal }).catch(() => null)
    await inFlight(1)
    expect((await fetch(url)).status).toBe(503)
    aborted.abort()
    await gone
    while (shedder.stats().inFlight > 0) await new Promise((r) => setTimeout(r, 5))
    const next = fetch(url)
    await inFlight(2)
    releaseAll()
    expect((await next).status).toBe(200)
  })

  it('refuses once half of the requests in flight, at least eight, have waited past the age limit — a few slow ones do not', async () => {
    const shedder = loadShedder({ maxInFlight: 100, maxAgeMs: 200, maxLagMs: 0 })
    const { url, releaseAll, inFlight } = await serve(shedder)
    const held = [fetch(url), fetch(url), fetch(url), fetch(url)]
    await inFlight(4)
    await new Promise((r) => setTimeout(r, 300))
    // Four requests, all past 200 ms: slow, but four cannot queue anyone for long — the fifth is served.
    held.push(fetch(url))
    await inFlight(5)
    expect(shedder.stats().shed).toBe(0)
    // Eight in flight, five of them old: one old and seven new would be a process keeping up; this is not.
    held.push(fetch(url), fetch(url), fetch(url))
    await inFlight(8)
    expect(shedder.stats().shed).toBe(0)
    expect((await fetch(url)).status).toBe(503)
    releaseAll()
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(8).fill(200))
    const next = fetch(url)
    await inFlight(1)
    releaseAll()
    expect((await next).status).toBe(200)
  })

  it('one slow request among many new ones is not being behind', async () => {
    // A long age limit: the nine new requests stay new even on a machine that stalls for a moment.
    const shedder = loadShedder({ maxInFlight: 100, maxAgeMs: 1000, maxLagMs: 0 })
    const { url, releaseAll, inFlight } = await serve(shedder)
    const held = [fetch(url)]
    await inFlight(1)
    await new Promise((r) => setTimeout(r, 1100))
    held.push(...Array.from({ length: 9 }, () => fetch(url)))
    await inFlight(10)
    expect(shedder.stats().shed).toBe(0)
    releaseAll()
    expect((await Promise.all(held)).every((r) => r.status === 200)).toBe(true)
  })

  it('admits as many pages as it finishes in the target time: the limit follows the pages finished per second of work', async () => {
    const shedder = loadShedder({ maxInFlight: 100, targetMs: 200, windowMs: 500, minBehind: 2, maxAgeMs: 0, maxLagMs: 0, sampleMs: 25 })
    const { url, releaseAll, inFlight } = await serve(shedder)
    const oneAtATime = (ms: number, forMs: number) => timedPages(url, ms, forMs)
    // Nothing measured yet: `minBehind`.
    expect(shedder.stats().limit).toBe(2)
    // Pages of 40 ms, one at a time: ≤ 25 finished per second of work, × 0.2 s: 5 (6 when the window's
    // edge cuts a page's work off but counts it as finished).
    await oneAtATime(40, 700)
    const slow = shedder.stats().limit
    expect(slow).toBeGreaterThanOrEqual(3)
    expect(slow).toBeLessThanOrEqual(6)
    // Pages of 2 ms: many more per second, a higher limit. At least twice the slow one's: on a busy
    // machine a 2 ms timer page takes ~12 ms from admission to its end (CI, 29 Nov: 17 against 6).
    await oneAtATime(2, 700)
    const fast = shedder.stats().limit
    expect(fast).toBeGreaterThanOrEqual(2 * slow)
    // Idle time does not count: after another quiet window the limit still stands.
    await new Promise((r) => setTimeout(r, 600))
    expect(shedder.stats().limit).toBe(fast)
    // With `limit` pages in flight the next one is refused.
    const held = Array.from({ length: fast }, () => fetch(url))
    await inFlight(fast)
    expect((await fetch(url)).status).toBe(503)
    // A process that finishes nothing for a window admits only `minBehind`.
    await new Promise((r) => setTimeout(r, 700))
    expect(shedder.stats().limit).toBe(2)
    releaseAll()
    expect((await Promise.all(held)).every((r) => r.status === 200)).toBe(true)
  })

  it('each kind of page has its own limit: one learnt on fast pages does not let slow ones in by the dozen', async () => {
    const shedder = loadShedder({ maxInFlight: 100, targetMs: 200, windowMs: 500, minBehind: 2, maxAgeMs: 0, maxLagMs: 0, sampleMs: 25, kindOf: pathOf })
    const { url, releaseAll, inFlight } = await serve(shedder)
    await timedPages(url, 2, 700)
    expect(shedder.stats('/timed').limit).toBeGreaterThanOrEqual(6)
    // `/page` has not been measured: `minBehind`.
    expect(shedder.stats('/page').limit).toBe(2)
    const held = [fetch(url), fetch(url)]
    await inFlight(2)
    expect((await fetch(url)).status).toBe(503)
    expect((await fetch(`${url.replace('/page', '/timed')}?ms=1`)).status).toBe(200)
    releaseAll()
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200])
  })

  it('before its first measure, each page finished lets one more in (a slow start)', async () => {
    // No sample is taken within the test (`sampleMs`): nothing is measured.
    const shedder = loadShedder({ maxInFlight: 4, targetMs: 200, minBehind: 2, maxAgeMs: 0, maxLagMs: 0, sampleMs: 60_000 })
    const { url } = await serve(shedder)
    expect(shedder.stats().limit).toBe(2)
    for (let i = 0; i < 3; i++) expect((await fetch(`${url.replace('/page', '/timed')}?ms=1`)).status).toBe(200)
    // 2, one more per page finished: 4 after two, and no higher than `maxInFlight` after the third.
    expect(shedder.stats().limit).toBe(4)
  })

  it('refuses while the event loop lags past the limit, whatever is in flight', async () => {
    const shedder = loadShedder({ maxInFlight: 100, maxLagMs: 100, sampleMs: 250 })
    const { url, releaseAll, inFlight } = await serve(shedder)
    // Block the loop for longer than a sample window, as a pile of synchronous renders would.
    const until = Date.now() + 600
    while (Date.now() < until);
    while (shedder.stats().lagMs <= 100) await new Promise((r) => setTimeout(r, 1))
    expect((await fetch(url)).status).toBe(503)
    // Once the loop is calm again, the next window lets requests through.
    await new Promise((r) => setTimeout(r, 600))
    const ok = fetch(url)
    await inFlight(1)
    releaseAll()
    expect((await ok).status).toBe(200)
  })
})
