import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shares } from '../../db/schema.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp, type TestApp } from '../../../test/helpers.ts'

let t: TestApp
let seller: string
let admin: string

const SECRET = 'the secret text 秘密 42'
const newShare = (overrides: Record<string, unknown> = {}) => ({ title: 'A share', type: 'text', content: SECRET, price: 9.9, subscription_status: 'close', ...overrides })

async function create(token: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(token), payload: body })
}

beforeAll(async () => {
  t = await buildTestApp()
  seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())

describe('the public lookup', () => {
  it('never carries the content for visitors; owner and admin see it; unknown, deleted and malformed codes answer 404/422', async () => {
    const s = (await create(seller, newShare())).json().data
    const anon = await t.app.inject({ url: `/api/share?unicode=${s.unicode}` })
    expect(anon.statusCode).toBe(200)
    expect(anon.body).not.toContain(SECRET)
    expect(anon.json().data).not.toHaveProperty('content')
    expect(anon.json().data.status).toBe('under_review')
    expect(anon.json().data.for_sale).toBe(false)
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(seller) })).json().data.content).toBe(SECRET)
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: bearer(admin) })).json().data.content).toBe(SECRET)
    expect((await t.app.inject({ url: '/api/share?unicode=ZZZZZZZZ' })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/api/share?unicode=0OIl0OIl' })).statusCode).toBe(422)
    expect((await t.app.inject({ url: '/api/share' })).statusCode).toBe(422)
    await t.app.inject({ url: `/api/shares/delete?id=${s.id}`, headers: bearer(seller) })
    expect((await t.app.inject({ url: `/api/share?unicode=${s.unicode}` })).statusCode).toBe(404)
  })

  it('counts a visit once per visitor per day, and not the owner\'s', async () => {
    const s = (await create(seller, newShare())).json().data
    const visit = (vid?: string, token?: string) =>
      t.app.inject({ url: `/api/share?unicode=${s.unicode}`, headers: { ...(vid ? { 'x-visitor-id': vid } : {}), ...(token ? bearer(token) : {}) } })
    const a = 'visitor-aaaaaaaaaaaaaaaa'
    const b = 'visitor-bbbbbbbbbbbbbbbb'
    expect((await visit(a)).json().data.visit_count).toBe(1)
    expect((await visit(a)).json().data.visit_count).toBe(1)
    expect((await visit(b)).json().data.visit_count).toBe(2)
    await visit(undefined, seller)
    await t.app.visits.flush()
    const [row] = await t.db.select({ n: shares.visitCount }).from(shares).where(eq(shares.id, s.id))
    expect(row!.n).toBe(2)
    expect((await visit(a)).json().data.visit_count).toBe(2)
  })
})
