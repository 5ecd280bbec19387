import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { verifyVisitorId } from '#contract/visitor.server.ts'
import type * as Purchases from './purchases.ts'

const SECRET = 'console-test-secret'
let visitorId: typeof Purchases.visitorId
let readPurchases: typeof Purchases.readPurchases
let rememberPurchase: typeof Purchases.rememberPurchase

beforeAll(async () => {
  // env.ts reads its settings when first imported: a secret of our own and a throw-away DATA_DIR.
  process.env.SESSION_SECRET = SECRET
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ps-purchases-'))
  ;({ visitorId, readPurchases, rememberPurchase } = await import('./purchases.ts'))
})

const CLIENT = { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'Browser A' }
const get = (headers: Record<string, string> = {}) => new Request('http://localhost/share/AbCd2345', { headers: { ...CLIENT, ...headers } })
/** The `name=value` part of a Set-Cookie header, to send back. */
const cookieOf = (setCookie: string | null) => setCookie!.split(';')[0]!
const idOf = (header: string) => verifyVisitorId(header, SECRET)

describe('visitorId (issue 6: the visit counter trusts only what the console signed)', () => {
  it('forwards a signed id and keeps it in a signed cookie', async () => {
    const first = await visitorId(get())
    const id = idOf(first.header)
    expect(id).toBeTruthy()
    expect(first.setCookie).toMatch(/^ps_vid=[^;]+\.[^;]+;/)
    const again = await visitorId(get({ cookie: cookieOf(first.setCookie), 'x-forwarded-for': '198.51.100.1' }))
    expect(idOf(again.header)).toBe(id)
    expect(again.setCookie).toBeNull()
  })

  it('a tampered, forged or unsigned cookie is not a new visitor: the id of this address', async () => {
    const own = idOf((await visitorId(get())).header)
    const issued = cookieOf((await visitorId(get({ 'x-forwarded-for': '198.51.100.9', 'user-agent': 'Browser B' }))).setCookie)
    const [name, value] = issued.split('=') as [string, string]
    const [, signature] = decodeURIComponent(value).split('.')
    const unsigned = (id: string) => encodeURIComponent(Buffer.from(JSON.stringify(id)).toString('base64'))
    for (const cookie of [
      `${name}=${unsigned('visitor-zzzzzzzzzzzzzzzz')}`,
      `${name}=${unsigned('visitor-zzzzzzzzzzzzzzzz')}.${signature}`,
      `${name}=${value.slice(0, -4)}`,
      `${name}=visitor-zzzzzzzzzzzzzzzz`,
    ]) {
      const v = await visitorId(get({ cookie }))
      expect(idOf(v.header), cookie).toBe(own)
    }
  })

  it('without a cookie, another address is another visitor; another user agent is not (decision 106)', async () => {
    const own = idOf((await visitorId(get())).header)
    expect(idOf((await visitorId(get({ 'x-forwarded-for': '203.0.113.8' }))).header)).not.toBe(own)
    expect(idOf((await visitorId(get({ 'user-agent': 'Browser B' }))).header)).toBe(own)
  })
})

describe('the purchase cookie (decision 102: the order number and the buyer key of the browser that paid)', () => {
  const NO = (i: number) => `PS20261123090424${String(i).padStart(12, '0')}`
  const KEY = 'AbCdEfGhIjKlMnOpQrSt_-'
  const ALPHA = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
  const code = (i: number) => `Share${ALPHA[Math.floor(i / ALPHA.length)]}${ALPHA[i % ALPHA.length]}2`
  const withCookie = (setCookie: string | null) => get({ cookie: cookieOf(setCookie) })

  it('keeps the key beside the number, signed and httpOnly; 30 purchases with keys stay under 4 KB', async () => {
    const set = await rememberPurchase(get(), 'AbCd2345', { orderNo: NO(1), buyerKey: KEY })
    expect(set).toMatch(/^ps_orders=.*HttpOnly/i)
    expect(set).not.toContain(KEY)
    expect(await readPurchases(withCookie(set))).toEqual({ AbCd2345: { orderNo: NO(1), buyerKey: KEY } })
    let request = get()
    let last: string | null = null
    for (let i = 0; i < 31; i++) {
      last = await rememberPurchase(request, code(i), { orderNo: NO(i), buyerKey: KEY })
      request = withCookie(last)
    }
    expect(cookieOf(last).length).toBeLessThan(4096)
    const kept = await readPurchases(request)
    expect(Object.keys(kept)).toHaveLength(30)
    expect(kept[code(30)]).toEqual({ orderNo: NO(30), buyerKey: KEY })
  })

  it('an order number without a key (a link, the home page) never replaces the purchase this browser holds the key of', async () => {
    const keyed = withCookie(await rememberPurchase(get(), 'AbCd2345', { orderNo: NO(1), buyerKey: KEY }))
    expect(await rememberPurchase(keyed, 'AbCd2345', { orderNo: NO(2), buyerKey: null })).toBeNull()
    expect(await rememberPurchase(keyed, 'AbCd2345', { orderNo: NO(1), buyerKey: null })).toBeNull()
    // A new purchase made in this browser does.
    const next = await rememberPurchase(keyed, 'AbCd2345', { orderNo: NO(3), buyerKey: 'ZyXwVuTsRqPoNmLkJiHgFe' })
    expect((await readPurchases(withCookie(next))).AbCd2345).toEqual({ orderNo: NO(3), buyerKey: 'ZyXwVuTsRqPoNmLkJiHgFe' })
    // Without one kept, the number alone is remembered (to reopen the content), with no key.
    const bare = await rememberPurchase(get(), 'AbCd2345', { orderNo: NO(4), buyerKey: null })
    expect((await readPurchases(withCookie(bare))).AbCd2345).toEqual({ orderNo: NO(4), buyerKey: null })
  })
})
