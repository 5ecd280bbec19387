// The console's load shedder (web-load.mjs, decision 141): past the limit of page requests in flight,
// a request is answered at once with 503, Retry-After and the busy page in the visitor's language —
// the same wiring web-server.mjs uses, on a real HTTP server.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { consoleShedder, loadShedder } from '../../web-load.mjs'

vi.hoisted(() => {
  process.env.SESSION_SECRET ||= 'console-tests-session-secret'
})
const { busyRefusal } = await import('../../app/.server/request.ts')

const closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
  delete process.env.WEB_MAX_IN_FLIGHT
})

/** A server whose pages wait until released: requests stay in flight as long as the test wants. */
async function serve(shedder: ReturnType<typeof loadShedder>) {
  const waiting: (() => void)[] = []
  const app = express()
  app.use(shedder.middleware)
  app.get('/page', (_req, res) => void waiting.push(() => res.send('page')))
  app.get('/events', (_req, res) => void waiting.push(() => res.send('stream')))
  app.get('/page.data', (_req, res) => void waiting.push(() => res.send('data')))
  const server = app.listen(0, '127.0.0.1')
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
  return { url, releaseAll, inFlight }
}

describe('the console sheds load past its limit', () => {
  it('answers 503 with Retry-After and the busy text once the limit is in flight, and serves again after', async () => {
    process.env.WEB_MAX_IN_FLIGHT = '3'
    const shedder = consoleShedder(busyRefusal)
    const { url, releaseAll, inFlight } = await serve(shedder)
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
    expect(shedder.stats()).toMatchObject({ inFlight: 3, shed: 2 })

    releaseAll()
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200])
    const again = fetch(url)
    await inFlight(1)
    releaseAll()
    expect(await (await again).text()).toBe('page')
    expect(shedder.stats().inFlight).toBe(0)
  })

  it('the live events stream is never counted nor refused: open streams leave pages their places', async () => {
    process.env.WEB_MAX_IN_FLIGHT = '2'
    const shedder = consoleShedder(busyRefusal)
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
    const shedder = consoleShedder(busyRefusal)
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
    const shedder = loadShedder({ maxInFlight: 1, maxLagMs: 0, refuse: (_req, res) => res.status(503).end() })
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
    const shedder = loadShedder({ maxInFlight: 100, maxAgeMs: 200, maxLagMs: 0, refuse: (_req, res) => res.status(503).end() })
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
    const shedder = loadShedder({ maxInFlight: 100, maxAgeMs: 1000, maxLagMs: 0, refuse: (_req, res) => res.status(503).end() })
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

  it('refuses while the event loop lags past the limit, whatever is in flight', async () => {
    const shedder = loadShedder({ maxInFlight: 100, maxLagMs: 100, sampleMs: 250, refuse: (_req, res) => res.status(503).end() })
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
