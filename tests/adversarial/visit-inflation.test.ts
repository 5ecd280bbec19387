// Issue 20, Low: "visit counts rise with every new User-Agent or X-Forwarded-For". A seller (or anyone)
// inflating a share's visits with a script: a new User-Agent, a made-up X-Forwarded-For, a forged or a
// fresh visitor id on each request. A visit counts once per signed visitor id (the console's cookie),
// and without one once per address per share per day — the address as the trusted hops say it is
// (TRUST_PROXY), never as the caller claims (decision 106).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signVisitorId } from '#contract/visitor.server.ts'
import { shares } from '../../server/src/db/schema/index.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp, testConfig } from '../../server/test/helpers.ts'

const SESSION_SECRET = testConfig().secrets.sessionSecret
const N = 30

/** An app whose API believes X-Forwarded-For from `trustProxy`, and an approved share on it. */
async function appWithShare(trustProxy: boolean | number | string) {
  const t = await buildTestApp({ config: { trustProxy } })
  const seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  const admin = await t.login('admin', ADMIN_PASSWORD)
  const created = await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(seller), payload: { title: 'Counted', type: 'text', content: 'x', price: 1, subscription_status: 'close' } })
  const share = created.json().data as { id: number; unicode: string }
  await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: share.id, status: 'approved' } })
  const visit = (remoteAddress: string, headers: Record<string, string>) => t.app.inject({ url: `/api/share?unicode=${share.unicode}`, remoteAddress, headers })
  const counted = async () => {
    await t.app.visits.flush()
    const [row] = await t.db.select({ n: shares.visitCount }).from(shares).where(eq(shares.id, share.id))
    return row!.n
  }
  return { t, visit, counted }
}

const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + i}.0) Gecko/20100101 Firefox/${100 + i}.0`

describe('a caller the API does not trust as a proxy', () => {
  let s: Awaited<ReturnType<typeof appWithShare>>
  beforeAll(async () => {
    s = await appWithShare(false)
  })
  afterAll(() => s.t.close())

  it(`${N} requests with a new User-Agent, X-Forwarded-For and forged visitor id each count once`, async () => {
    for (let i = 0; i < N; i++) {
      await s.visit('198.51.100.20', { 'user-agent': agent(i), 'x-forwarded-for': `203.0.113.${i}`, 'x-visitor-id': `visitor-${String(i).padStart(16, 'x')}.forged` })
    }
    expect(await s.counted()).toBe(1)
    // Another address is another visitor.
    await s.visit('198.51.100.21', { 'user-agent': agent(0) })
    expect(await s.counted()).toBe(2)
  })

  it('one signed visitor id counts once, whatever address and User-Agent it comes with', async () => {
    const before = await s.counted()
    const id = signVisitorId('visitor-signed-aaaaaaaa', SESSION_SECRET)
    for (let i = 0; i < N; i++) await s.visit(`198.51.100.${100 + i}`, { 'user-agent': agent(i), 'x-visitor-id': id })
    expect(await s.counted()).toBe(before + 1)
  })
})

describe('the console, on loopback, as the trusted proxy (TRUST_PROXY=loopback)', () => {
  let s: Awaited<ReturnType<typeof appWithShare>>
  beforeAll(async () => {
    s = await appWithShare('loopback')
  })
  afterAll(() => s.t.close())

  it('the address it forwards counts once, whatever User-Agent comes with it', async () => {
    for (let i = 0; i < N; i++) await s.visit('127.0.0.1', { 'user-agent': agent(i), 'x-forwarded-for': '203.0.113.50' })
    expect(await s.counted()).toBe(1)
  })

  it('an address a client put in front of the one the console forwards is not believed', async () => {
    const before = await s.counted()
    for (let i = 0; i < N; i++) await s.visit('127.0.0.1', { 'user-agent': agent(i), 'x-forwarded-for': `10.9.${i}.1, 203.0.113.51` })
    expect(await s.counted()).toBe(before + 1)
  })
})

describe('behind a load balancer and a console (TRUST_PROXY=2: two hops)', () => {
  let s: Awaited<ReturnType<typeof appWithShare>>
  beforeAll(async () => {
    s = await appWithShare(2)
  })
  afterAll(() => s.t.close())

  it('the client is the address the two trusted hops report, whatever the client wrote before it', async () => {
    for (let i = 0; i < N; i++) await s.visit('10.0.0.9', { 'user-agent': agent(i), 'x-forwarded-for': `10.9.${i}.1, 203.0.113.60, 10.0.0.5` })
    expect(await s.counted()).toBe(1)
  })
})
