import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, packages, subscriptions } from '../../db/schema/index.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, USER_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp } from '../../../test/helpers.ts'

let t: TestApp
let admin: string
let user: string

beforeAll(async () => {
  t = await buildTestApp()
  admin = await t.login('admin', ADMIN_PASSWORD)
  user = await t.login((await createUser(t.db)).userName, USER_PASSWORD)
})
afterAll(() => t.close())

const VALID = { name: 'Monthly', download_limit: 3, price: 19.9, duration_days: 30 }

async function create(fields: Partial<typeof VALID> & { status?: string } = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/api/packages/admin/create', headers: bearer(admin), payload: { ...VALID, name: `Pack ${Math.random().toString(36).slice(2, 7)}`, ...fields } })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().data as { id: number; name: string; price: number; status: string; subscription_count: number }
}

const buy = (token: string, id: number, paymentMethod = 'Alipay') =>
  t.app.inject({ method: 'POST', url: '/api/packages/buy', headers: bearer(token), remoteAddress: freshIp(), payload: { id, paymentMethod } })

async function buyAndPay(token: string, id: number, amountFen: number) {
  const res = await buy(token, id)
  expect(res.statusCode, res.body).toBe(201)
  const { orderNo } = res.json().data as { orderNo: string }
  const n = t.app.payments.sandbox!.settle(orderNo, amountFen, true)
  await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
  return orderNo
}

describe('admin package management', () => {
  it('creates, edits, takes off shelf and puts on sale again; the list shows the subscription counts', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/packages/admin/create', headers: bearer(admin), payload: { ...VALID, name: '  Quarterly  ', price: '49.90' } })
    expect(created.statusCode, created.body).toBe(201)
    const p = created.json().data
    expect(p).toMatchObject({ name: 'Quarterly', download_limit: 3, price: 49.9, duration_days: 30, status: 'on_sale', subscription_count: 0, opened_count: 0 })
    expect((await t.db.select().from(packages).where(eq(packages.id, p.id)))[0]!.priceFen).toBe(4990)

    const edited = await t.app.inject({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), payload: { id: p.id, download_limit: 5, price: 39.9 } })
    expect(edited.statusCode).toBe(200)
    expect(edited.json()).toMatchObject({ msg: 'common.editSuccess', data: { name: 'Quarterly', download_limit: 5, price: 39.9 } })

    const off = await t.app.inject({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), payload: { id: p.id, status: 'off_shelf' } })
    expect(off.json().data.status).toBe('off_shelf')
    const onSale = (await t.app.inject({ url: '/api/packages/list?pageSize=100', headers: bearer(user) })).json().data.list as { id: number }[]
    expect(onSale.map((x) => x.id)).not.toContain(p.id)
    await t.app.inject({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), payload: { id: p.id, status: 'on_sale' } })
    expect(((await t.app.inject({ url: '/api/packages/list?pageSize=100', headers: bearer(user) })).json().data.list as { id: number }[]).map((x) => x.id)).toContain(p.id)

    // Two subscribers (one of them buying twice), and a package nobody bought beside it.
    await create({ name: 'Quarterly lite' })
    await buyAndPay(user, p.id, 3990)
    await buyAndPay(user, p.id, 3990)
    const other = await t.login((await createUser(t.db)).userName, USER_PASSWORD)
    await buyAndPay(other, p.id, 3990)
    await t.db.update(subscriptions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(subscriptions.packageId, p.id))
    await buyAndPay(other, p.id, 3990)
    const listed = (await t.app.inject({ url: `/api/packages/admin/list?keyword=Quarterly`, headers: bearer(admin) })).json().data
    expect(listed).toMatchObject({ total: 2, list: [{ name: 'Quarterly lite', subscription_count: 0, opened_count: 0 }, { id: p.id, subscription_count: 2, opened_count: 1 }] })
    expect((await t.app.inject({ url: '/api/packages/admin/list?status=off_shelf&keyword=Quarterly', headers: bearer(admin) })).json().data.total).toBe(0)
    expect((await t.app.inject({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), payload: { id: 999999, status: 'on_sale' } })).statusCode).toBe(404)
  })

  it('bad input gets 422 naming the field and changes nothing', async () => {
    const before = await dbFingerprint(t.db)
    const fields = {
      name: { type: 'string', required: true, freeText: true },
      download_limit: { type: 'int', required: true },
      price: { type: 'string', required: true },
      duration_days: { type: 'int', required: true },
    } as const
    for (const c of badInputs({ method: 'POST', url: '/api/packages/admin/create', headers: bearer(admin), body: { fields, valid: VALID } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: ' ' }, 'name', 'subscriptions.validation.nameRequired'],
      [{ name: 'x'.repeat(51) }, 'name', 'subscriptions.validation.nameMax'],
      [{ download_limit: 0 }, 'download_limit', 'subscriptions.validation.downloadLimit'],
      [{ download_limit: 1001 }, 'download_limit', 'subscriptions.validation.downloadLimit'],
      [{ duration_days: 0 }, 'duration_days', 'subscriptions.validation.durationDays'],
      [{ duration_days: 3651 }, 'duration_days', 'subscriptions.validation.durationDays'],
      [{ price: 0 }, 'price', 'validation.priceRange'],
      [{ price: 1.234 }, 'price', 'validation.priceDecimals'],
      [{ status: 'sold' }, 'status', 'subscriptions.validation.status'],
    ]
    for (const [patch, field, msg] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/packages/admin/create', headers: bearer(admin), payload: { ...VALID, ...patch } })
      expect(res.statusCode, JSON.stringify(patch)).toBe(422)
      expect(res.json().data.fieldErrors[field]).toEqual([msg])
    }
    for (const c of badInputs({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), body: { fields: { id: { type: 'int', required: true } }, valid: { id: 1 } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    for (const c of badInputs({ method: 'GET', url: '/api/packages/admin/delete', headers: bearer(admin), query: { fields: { id: { type: 'int', required: true } }, valid: { id: '1' } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('non-admins get 403 on every admin call, visitors 401', async () => {
    const p = await create()
    const calls = [
      { method: 'GET' as const, url: '/api/packages/admin/list' },
      { method: 'POST' as const, url: '/api/packages/admin/create', payload: VALID },
      { method: 'POST' as const, url: '/api/packages/admin/update', payload: { id: p.id, status: 'off_shelf' } },
      { method: 'GET' as const, url: `/api/packages/admin/delete?id=${p.id}` },
    ]
    const before = await dbFingerprint(t.db)
    for (const c of calls) {
      expect((await t.app.inject({ ...c, headers: bearer(user) })).statusCode, c.url).toBe(403)
      expect((await t.app.inject(c)).statusCode, c.url).toBe(401)
    }
    expect((await t.app.inject({ url: '/api/packages/list' })).statusCode).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('deleting a package (SPEC §8)', () => {
  it('with subscribers: refused (Delete Fail), the package stays; without: deleted (Delete Success)', async () => {
    const used = await create({ price: 5 })
    await buyAndPay(user, used.id, 500)
    const before = await dbFingerprint(t.db)
    const refused = await t.app.inject({ url: `/api/packages/admin/delete?id=${used.id}`, headers: bearer(admin) })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().msg).toBe('subscriptions.packageInUse')
    expect(await dbFingerprint(t.db)).toEqual(before)

    // Ordered but not paid: the order may still be paid (a late payment is honoured), so it stays too.
    const ordered = await create({ price: 6 })
    expect((await buy(user, ordered.id)).statusCode).toBe(201)
    expect((await t.app.inject({ url: `/api/packages/admin/delete?id=${ordered.id}`, headers: bearer(admin) })).statusCode).toBe(409)

    const unused = await create()
    const done = await t.app.inject({ url: `/api/packages/admin/delete?id=${unused.id}`, headers: bearer(admin) })
    expect(done.statusCode).toBe(200)
    expect(done.json().msg).toBe('common.deleteSuccess')
    expect(await t.db.select().from(packages).where(eq(packages.id, unused.id))).toHaveLength(0)
    expect((await t.app.inject({ url: `/api/packages/admin/delete?id=${unused.id}`, headers: bearer(admin) })).statusCode).toBe(404)
  })
})

describe('buying a package', () => {
  it('an order of the package through the payment pipeline: Alipay → the pay page, WeChat → a QR code; back to the package page', async () => {
    const p = await create({ price: 19.9 })
    const alipay = await buy(user, p.id, 'Alipay')
    expect(alipay.statusCode).toBe(201)
    const { orderNo, payUrl } = alipay.json().data
    expect(payUrl).toContain('/api/payments/sandbox/checkout?')
    expect(decodeURIComponent(payUrl)).toContain(`/subscription-manage/package-list?order=${orderNo}`)
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNo, orderNo))
    expect(order).toMatchObject({ productType: 'package', packageId: p.id, productName: p.name, amountFen: 1990, sellerId: null, paymentStatus: 'Pending' })
    expect((await buy(user, p.id, 'WeChat')).json().data.qrCode).toBeTruthy()
    // The buyer's orders list it by the package's name.
    const mine = (await t.app.inject({ url: '/api/orders/list', headers: bearer(user) })).json().data.list as { orderNo: string; product_name: string }[]
    expect(mine.find((o) => o.orderNo === orderNo)?.product_name).toBe(p.name)
  })

  it('a price changed after the order was created: the order settles at its own amount', async () => {
    const u = await createUser(t.db)
    const token = await t.login(u.userName, USER_PASSWORD)
    const p = await create({ price: 10 })
    const { orderNo } = (await buy(token, p.id)).json().data
    await t.app.inject({ method: 'POST', url: '/api/packages/admin/update', headers: bearer(admin), payload: { id: p.id, price: 20 } })
    const n = t.app.payments.sandbox!.settle(orderNo, 1000, true)
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })).statusCode).toBe(200)
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, u.id))).toHaveLength(1)
  })

  it('refuses a package off shelf, an unknown one and bad input, changing nothing', async () => {
    const off = await create({ status: 'off_shelf' })
    const before = await dbFingerprint(t.db)
    const refused = await buy(user, off.id)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().msg).toBe('subscriptions.packageNotOnSale')
    expect((await buy(user, 999999)).statusCode).toBe(404)
    expect((await buy(user, off.id, 'Bitcoin')).statusCode).toBe(422)
    for (const c of badInputs({
      method: 'POST',
      url: '/api/packages/buy',
      headers: bearer(user),
      body: { fields: { id: { type: 'int', required: true }, paymentMethod: { type: 'string', required: true } }, valid: { id: off.id, paymentMethod: 'Alipay' } },
    })) {
      expectRejected(await t.app.inject({ ...c.request, remoteAddress: freshIp() }), c)
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/packages/buy', payload: { id: off.id, paymentMethod: 'Alipay' } })).statusCode).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('the packages on sale, cheapest first', async () => {
    await create({ price: 1.5 })
    const list = (await t.app.inject({ url: '/api/packages/list?pageSize=100', headers: bearer(user) })).json().data.list as { price: number; status: string }[]
    expect(list.every((p) => p.status === 'on_sale')).toBe(true)
    expect(list.map((p) => p.price)).toEqual([...list.map((p) => p.price)].sort((a, b) => a - b))
  })
})
