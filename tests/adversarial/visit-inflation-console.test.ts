// Issue 20, Low, the console's half of "visit counts rise with every new User-Agent": the share page
// forwards a signed visitor id to the API, and a browser without the cookie got one derived from its
// address and its User-Agent — a script sending a new User-Agent each time was a new visitor each time,
// and collected a fresh, validly signed cookie with it. Through the real share page loader: without a
// cookie the id is the address's alone; with the cookie it is the cookie's (decision 106).
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type DataOf } from '#contract/http.ts'
import { shareApi } from '#contract/shares.ts'
import { args, get } from '../support/console.ts'
import { loader } from '#app/routes/share.$unicode/route.tsx'

const stub = await vi.hoisted(async () => (await import('../support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const SHARE = {
  id: 3,
  unicode: 'AbCd2345',
  title: 'Notes',
  type: 'text',
  price: 9.9,
  user_name: 'seller',
  visit_count: 1,
  purchase_count: 0,
  status: 'approved',
  subscription_status: 'close',
  created_at: '2026-11-01T00:00:00.000Z',
  for_sale: true,
} satisfies DataOf<typeof shareApi.lookup>

beforeEach(() => {
  stub.reset()
  stub.on(shareApi.lookup, { data: SHARE })
})

/** Opens the share page as a browser with these headers; the visitor id the API was sent, and the cookie set. */
async function open(headers: Record<string, string>) {
  const request = get('/share/AbCd2345')
  for (const [k, v] of Object.entries(headers)) request.headers.set(k, v)
  const answer = (await loader(args(request, { unicode: 'AbCd2345' }))) as { init: ResponseInit | null }
  const sent = stub.calls.at(-1)!.headers['x-visitor-id'] as string
  const setCookie = new Headers(answer.init?.headers).get('set-cookie')
  return { sent, setCookie }
}

const agent = (i: number) => `Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/${120 + i}.0 Safari/537.36`

describe('the visitor id the share page forwards', () => {
  it('without a cookie: one per address, whatever User-Agent comes with it', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) ids.add((await open({ 'x-forwarded-for': '203.0.113.7', 'user-agent': agent(i) })).sent)
    expect(ids.size).toBe(1)
    // Another address is another visitor.
    expect((await open({ 'x-forwarded-for': '203.0.113.8', 'user-agent': agent(0) })).sent).not.toBe([...ids][0])
  })

  it('the cookies a script collects with new User-Agents are all the same visitor', async () => {
    const cookies = new Set<string>()
    for (let i = 0; i < 20; i++) cookies.add((await open({ 'x-forwarded-for': '203.0.113.9', 'user-agent': agent(i) })).setCookie!.split(';')[0]!)
    expect(cookies.size).toBe(1)
  })

  it('with its cookie: the cookie\'s id, from any address', async () => {
    const first = await open({ 'x-forwarded-for': '203.0.113.10', 'user-agent': agent(0) })
    const cookie = first.setCookie!.split(';')[0]!
    const later = await open({ 'x-forwarded-for': '198.51.100.3', 'user-agent': agent(5), cookie })
    expect(later.sent).toBe(first.sent)
    expect(later.setCookie).toBeNull()
  })
})
