// SSE replay (issue 22, decision 138): every event carries an `id:`; a stream that reconnects with
// `Last-Event-ID` is sent what was published for it meanwhile, each event once, then the live ones.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchClient } from '#contract/client.ts'
import { messagesApi } from '#contract/messages.ts'
import { sql } from 'drizzle-orm'
import { ADMIN_PASSWORD, bearer, buildTestApp, DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, type TestApp } from '../../../test/helpers.ts'
import { readEvents } from '../../../test/sse.ts'
import { EVENTS_PATH } from '#contract/messages.ts'

type MessageEvent = { message: { content: string } }
const contentOf = (e: { data: unknown }) => (e.data as MessageEvent).message.content

describe('live events replayed after Last-Event-ID', () => {
  let t: TestApp
  let base: string
  let adminToken: string
  let buyerToken: string
  beforeAll(async () => {
    t = await buildTestApp()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    adminToken = await t.login('admin', ADMIN_PASSWORD)
    buyerToken = await t.login(DEMO_BUYER.userName, DEMO_PASSWORD)
  })
  afterAll(() => t.close())

  const send = (username: string, content: string) => fetchClient(base).ok(messagesApi.adminSend, { token: adminToken, body: { username, content } })

  it('sends the events missed while disconnected exactly once, in order, then the live ones', async () => {
    const first = readEvents(`${base}${EVENTS_PATH}`, bearer(buyerToken))
    expect(await first.ready).toBe(200)
    await send(DEMO_BUYER.userName, 'before')
    const seen = await first.waitFor((e) => e.type === 'message' && contentOf(e) === 'before')
    expect(seen.id).toMatch(/^\d+$/)
    first.close()

    // Published while the buyer is away: two for the buyer, one for somebody else.
    await send(DEMO_BUYER.userName, 'missed 1')
    await send(DEMO_SELLER.userName, 'not yours')
    await send(DEMO_BUYER.userName, 'missed 2')

    const again = readEvents(`${base}${EVENTS_PATH}`, { ...bearer(buyerToken), 'last-event-id': seen.id! })
    expect(await again.ready).toBe(200)
    await again.waitFor((e) => e.type === 'message' && contentOf(e) === 'missed 2')
    await send(DEMO_BUYER.userName, 'live')
    await again.waitFor((e) => e.type === 'message' && contentOf(e) === 'live')
    await new Promise((r) => setTimeout(r, 100))
    const messages = again.events.filter((e) => e.type === 'message')
    expect(messages.map(contentOf)).toEqual(['missed 1', 'missed 2', 'live'])
    // Ids rise, and are the ones the journal gave (the same on every instance).
    const ids = messages.map((e) => Number(e.id))
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    expect(ids[0]).toBeGreaterThan(Number(seen.id))
    again.close()
  })

  it('replays nothing without Last-Event-ID, and nothing older than the replay window', async () => {
    const fresh = readEvents(`${base}${EVENTS_PATH}`, bearer(buyerToken))
    expect(await fresh.ready).toBe(200)
    await new Promise((r) => setTimeout(r, 150))
    expect(fresh.events).toEqual([])
    fresh.close()

    // Everything journaled so far is made older than the window.
    await t.db.execute(sql`UPDATE live_events SET created_at = now() - interval '1 hour'`)
    const late = readEvents(`${base}${EVENTS_PATH}`, { ...bearer(buyerToken), 'last-event-id': '0' })
    expect(await late.ready).toBe(200)
    await new Promise((r) => setTimeout(r, 150))
    expect(late.events).toEqual([])
    late.close()
  })

  it('ignores a Last-Event-ID that is not one of its ids', async () => {
    const odd = readEvents(`${base}${EVENTS_PATH}`, { ...bearer(buyerToken), 'last-event-id': 'abc' })
    expect(await odd.ready).toBe(200)
    await send(DEMO_BUYER.userName, 'after odd')
    await odd.waitFor((e) => e.type === 'message' && contentOf(e) === 'after odd')
    expect(odd.events.filter((e) => e.type === 'message').map(contentOf)).toEqual(['after odd'])
    odd.close()
  })
})
