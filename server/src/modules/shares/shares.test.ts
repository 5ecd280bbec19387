import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { shares, users } from '../../db/schema/index.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp, createUser, dbFingerprint, uniquePhone, type TestApp } from '../../../test/helpers.ts'

let t: TestApp
let seller: string
let admin: string

const SECRET = 'the secret text 秘密 42'
const newShare = (overrides: Record<string, unknown> = {}) => ({ ...newShareBody(buildShare({ title: 'A share', content: SECRET, priceFen: 990 })), ...overrides })

async function create(token: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(token), payload: body })
}

beforeAll(async () => {
  t = await buildTestApp()
  seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())

describe('publishing', () => {
  it('is refused until the seller has a bound phone and agreed terms, and changes nothing', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, u.password)
    const before = await dbFingerprint(t.db)
    const noPhone = await create(token, newShare())
    expect(noPhone.statusCode).toBe(403)
    expect(noPhone.json().msg).toBe('shares.needPhone')
    await t.db.update(users).set({ phone: '13700000001' }).where(eq(users.id, u.id))
    const noTerms = await create(token, newShare())
    expect(noTerms.statusCode).toBe(403)
    expect(noTerms.json().msg).toBe('shares.needTerms')
    await t.db.update(users).set({ phone: null }).where(eq(users.id, u.id))
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('creates shares of each type under review with an 8-character code, content encrypted at rest', async () => {
    for (const [type, content, extraction_code] of [
      ['text', SECRET, undefined],
      ['url', 'https://example.com/x', undefined],
      ['netdisk', 'https://pan.example.com/s/abc', 'ab12'],
    ] as const) {
      const res = await create(seller, newShare({ type, content, extraction_code }))
      expect(res.statusCode, res.body).toBe(201)
      const data = res.json().data
      expect(data.unicode).toMatch(/^[2-9A-HJ-NP-Za-km-z]{8}$/)
      expect(data.status).toBe('under_review')
      expect(data.price).toBe(9.9)
      expect(res.body).not.toContain(content)
      const [row] = await t.db.select().from(shares).where(eq(shares.id, data.id))
      expect(row!.priceFen).toBe(990)
      expect(row!.contentEnc).not.toContain(content)
      expect(row!.contentEnc.startsWith('v1.')).toBe(true)
      if (extraction_code) expect(row!.extractionCodeEnc).not.toContain(extraction_code)
    }
  })

  it.each([
    ['empty title', { title: '' }, 'title'],
    ['title over 100', { title: 'x'.repeat(101) }, 'title'],
    ['url type with a non-http link', { type: 'url', content: 'javascript:alert(1)' }, 'content'],
    ['netdisk with ftp', { type: 'netdisk', content: 'ftp://x.y/z' }, 'content'],
    ['price 0', { price: 0 }, 'price'],
    ['price over 10,000', { price: 10000.01 }, 'price'],
    ['price with 3 decimals', { price: 1.234 }, 'price'],
    ['price as a boolean', { price: true }, 'price'],
    ['unknown type', { type: 'file' }, 'type'],
    ['bad extraction code', { type: 'netdisk', content: 'https://pan.example.com/s/a', extraction_code: '<b>' }, 'extraction_code'],
  ])('rejects %s with a field message and stores nothing', async (_name, patch, field) => {
    const before = await dbFingerprint(t.db)
    const res = await create(seller, newShare(patch))
    expect(res.statusCode).toBe(422)
    expect(Object.keys(res.json().data.fieldErrors)).toContain(field)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('answers every malformed request with a 4xx, never a 500', async () => {
    for (const c of badInputs({
      method: 'POST',
      url: '/api/shares/new',
      headers: bearer(seller),
      body: {
        fields: { title: { type: 'string', required: true, freeText: true }, content: { type: 'string', required: true, freeText: true }, type: { type: 'string', required: true } },
        valid: newShare(),
      },
    })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    for (const c of badInputs({ method: 'GET', url: '/api/shares/delete', headers: bearer(seller), query: { fields: { id: { type: 'int' } }, valid: { id: '1' } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
  })
})

describe('managing shares', () => {
  it('lists only the caller\'s shares, filtered and sorted, and hides others\' (404)', async () => {
    const u = await createUser(t.db, { phone: '13700000002' })
    await t.db.update(users).set({ termsAgreedAt: new Date() }).where(eq(users.id, u.id))
    const other = await t.login(u.userName, u.password)
    const mine = (await create(other, newShare({ title: 'Other seller share', price: 1 }))).json().data
    const list = await t.app.inject({ url: '/api/shares/list?sort=price&order=asc&pageSize=100', headers: bearer(seller) })
    expect(list.statusCode).toBe(200)
    const items = list.json().data.list as { id: number; price: number }[]
    expect(items.find((s) => s.id === mine.id)).toBeUndefined()
    expect(items.map((s) => s.price)).toEqual([...items.map((s) => s.price)].sort((a, b) => a - b))
    const filtered = await t.app.inject({ url: '/api/shares/list?type=netdisk', headers: bearer(seller) })
    expect((filtered.json().data.list as { type: string }[]).every((s) => s.type === 'netdisk')).toBe(true)
    expect((await t.app.inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller), payload: { id: mine.id, title: 'stolen' } })).statusCode).toBe(404)
    expect((await t.app.inject({ url: `/api/shares/delete?id=${mine.id}`, headers: bearer(seller) })).statusCode).toBe(404)
    expect((await t.app.inject({ url: `/api/shares/detail?id=${mine.id}`, headers: bearer(seller) })).statusCode).toBe(404)
  })

  it('sends edited title or content back to review but not a price change', async () => {
    const s = (await create(seller, newShare())).json().data
    await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
    const price = await t.app.inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller), payload: { id: s.id, price: 19.5 } })
    expect(price.json().data.status).toBe('approved')
    expect(price.json().data.price).toBe(19.5)
    const title = await t.app.inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller), payload: { id: s.id, title: 'New title' } })
    expect(title.json().data.status).toBe('under_review')
    const detail = await t.app.inject({ url: `/api/shares/detail?id=${s.id}`, headers: bearer(seller) })
    expect(detail.json().data.content).toBe(SECRET)
  })

  it('follows the status machine for admins (409 otherwise) and is admin-only', async () => {
    const s = (await create(seller, newShare())).json().data
    const move = (status: string, token = admin) => t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(token), payload: { id: s.id, status } })
    expect((await move('approved', seller)).statusCode).toBe(403)
    expect((await move('reported_invalid')).statusCode).toBe(409)
    expect((await move('approved')).statusCode).toBe(200)
    expect((await move('reported_invalid')).statusCode).toBe(200)
    const edit = await t.app.inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller), payload: { id: s.id, content: 'new content' } })
    expect(edit.statusCode).toBe(409)
    expect((await move('approved')).statusCode).toBe(200)
    expect((await move('violation')).statusCode).toBe(200)
    expect((await move('approved')).statusCode).toBe(409)
    expect((await t.app.inject({ url: '/api/shares/admin/list', headers: bearer(seller) })).statusCode).toBe(403)
    const all = await t.app.inject({ url: `/api/shares/admin/list?keyword=${s.unicode}`, headers: bearer(admin) })
    expect(all.json().data.list[0].status).toBe('violation')
  })
})

describe('list order (issue 13: lists are in date order)', () => {
  it('seller and admin lists are newest first by default, equal times newest id first', async () => {
    const u = await createUser(t.db, { phone: uniquePhone() })
    await t.db.update(users).set({ termsAgreedAt: new Date() }).where(eq(users.id, u.id))
    const token = await t.login(u.userName, u.password)
    const made: { id: number; title: string }[] = []
    for (const title of ['a', 'b', 'c', 'd']) made.push((await create(token, newShare({ title }))).json().data)
    // Created times out of id order (an import, a clock step): a, then d and b at the same moment, c last.
    const at = { a: '2026-01-01T00:00:00Z', b: '2026-01-02T00:00:00Z', c: '2026-01-03T00:00:00Z', d: '2026-01-02T00:00:00Z' } as const
    for (const s of made) await t.db.update(shares).set({ createdAt: new Date(at[s.title as keyof typeof at]) }).where(eq(shares.id, s.id))
    const titles = (res: { json: () => { data: { list: { title: string }[] } } }) => res.json().data.list.map((s) => s.title)
    expect(titles(await t.app.inject({ url: '/api/shares/list', headers: bearer(token) }))).toEqual(['c', 'd', 'b', 'a'])
    expect(titles(await t.app.inject({ url: `/api/shares/admin/list?keyword=${u.userName}`, headers: bearer(admin) }))).toEqual(['c', 'd', 'b', 'a'])
    expect(titles(await t.app.inject({ url: '/api/shares/list?pageSize=2&pageNum=2', headers: bearer(token) }))).toEqual(['b', 'a'])
  })
})

describe('resubmitting an unchanged form', () => {
  it('does not send an approved share back to review when content and code are sent unchanged', async () => {
    const s = (await create(seller, newShare({ type: 'netdisk', content: 'https://pan.example.com/s/same', extraction_code: 'ab12' }))).json().data
    await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/shares/update',
      headers: bearer(seller),
      payload: { id: s.id, title: 'A share', type: 'netdisk', content: 'https://pan.example.com/s/same', extraction_code: 'ab12', price: 3 },
    })
    expect(same.json().data).toMatchObject({ status: 'approved', price: 3 })
    const changed = await t.app.inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller), payload: { id: s.id, extraction_code: 'zz99' } })
    expect(changed.json().data.status).toBe('under_review')
  })
})
