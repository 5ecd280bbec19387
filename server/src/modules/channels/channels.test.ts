import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { yuanToFen } from '#contract/money.ts'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { channels, orders, sellerChannels } from '../../db/schema/index.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp, uniqueName, uniquePhone } from '../../../test/helpers.ts'

const DAY = 24 * 3600 * 1000
let t: TestApp
let admin: string
/** The API's clock (app.clock): tests move it. */
let now = new Date('2026-11-20T04:00:00Z')
const at = (iso: string) => {
  now = new Date(iso)
}

type Created = { orderNo: string; payUrl?: string; qrCode?: string }
type Envelope<T> = { code: number; msg: string; data: T }

const get = async <T>(url: string, token?: string) => {
  const res = await t.app.inject({ url, headers: token ? bearer(token) : {}, remoteAddress: freshIp() })
  return { status: res.statusCode, ...(res.json() as Envelope<T>) }
}
const post = async <T>(url: string, token: string | undefined, payload: unknown) => {
  const res = await t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload: payload as object, remoteAddress: freshIp() })
  return { status: res.statusCode, ...(res.json() as Envelope<T>) }
}

type ChannelOut = { id: number; name: string; price: number; fee_rate: number; minimum_income: number; service_duration: number; status: string; open_sellers: number }
type ListOut = {
  list: { id: number; name: string; fee_rate: number; eligible: boolean; open_until: string | null }[]
  total: number
  account: { fee_rate: number; default_fee_rate: number; open: { channel_id: number; fee_rate: number; starts_at: string; ends_at: string }[]; last_month: string; last_month_income: number }
}

async function createChannel(over: Record<string, unknown> = {}) {
  const res = await post<ChannelOut>('/api/channels/admin/create', admin, {
    name: uniqueName('Channel'),
    price: 9.9,
    fee_rate: 2.5,
    minimum_income: 0,
    service_duration: 30,
    ...over,
  })
  expect(res.status, JSON.stringify(res)).toBe(201)
  return res.data
}

/** A user who can sell (phone bound, terms agreed), logged in. */
async function newSeller() {
  const u = await createUser(t.db, { phone: uniquePhone() })
  const token = await t.login(u.userName, u.password)
  await post('/api/users/agreeToTerms', token, {})
  return { ...u, token }
}

/** What the sandbox gateway sends when the payer presses Pay. */
function notify(orderNo: string, amountFen: number, paid = true) {
  const n = t.app.payments.sandbox!.settle(orderNo, amountFen, paid)
  return { method: 'POST' as const, url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body }
}

/** A share of `seller` sold (and paid) at the current clock; answers the paid order row. */
async function sell(seller: { token: string }, priceYuan: number) {
  const share = (await post<{ id: number; unicode: string }>('/api/shares/new', seller.token, newShareBody(buildShare({ priceFen: yuanToFen(priceYuan) })))).data
  await post('/api/shares/admin/update', admin, { id: share.id, status: 'approved' })
  const order = await post<Created>('/api/orders/create', undefined, { unicode: share.unicode, paymentMethod: 'Alipay' })
  expect(order.status).toBe(201)
  expect((await t.app.inject(notify(order.data.orderNo, yuanToFen(priceYuan)))).statusCode).toBe(200)
  return orderRow(order.data.orderNo)
}

async function openOrder(token: string, id: number, paymentMethod = 'Alipay') {
  return post<Created>('/api/channels/open', token, { id, paymentMethod })
}

/** Opens a channel for a seller through the pipeline: order, sandbox notify. */
async function openPaid(seller: { token: string }, channel: ChannelOut) {
  const created = await openOrder(seller.token, channel.id)
  expect(created.status, JSON.stringify(created)).toBe(201)
  expect((await t.app.inject(notify(created.data.orderNo, yuanToFen(channel.price)))).statusCode).toBe(200)
  return created.data.orderNo
}

const orderRow = async (orderNo: string) => (await t.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
const periodsOf = async (sellerId: number) => t.db.select().from(sellerChannels).where(eq(sellerChannels.sellerId, sellerId)).orderBy(sellerChannels.id)

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now })
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())
beforeEach(() => at('2026-11-20T04:00:00Z'))

describe('the terms (GET /api/channels/terms)', () => {
  it('are the configured numbers, for logged-in users only', async () => {
    const seller = await newSeller()
    const res = await get('/api/channels/terms', seller.token)
    expect(res.status).toBe(200)
    // server/test/helpers.ts testConfig: 500 bp, 24 h, withdrawals ¥10 min, 1 %, ¥0.10 min.
    expect(res.data).toEqual({ default_fee_rate: 5, settlement_delay_hours: 24, withdrawal_minimum: 10, withdrawal_fee_rate: 1, withdrawal_fee_minimum: 0.1 })
    expect((await get('/api/channels/terms')).status).toBe(401)
  })

  it('follow the configuration', async () => {
    const other = await buildTestApp({ config: { defaultFeeBp: 375, settlementDelayMs: 90 * 60 * 1000, withdrawal: { minFen: 5000, feeBp: 50, feeMinFen: 25 } } })
    try {
      const token = await other.login('admin', ADMIN_PASSWORD)
      const res = await other.app.inject({ url: '/api/channels/terms', headers: bearer(token) })
      expect(res.json().data).toEqual({ default_fee_rate: 3.75, settlement_delay_hours: 1.5, withdrawal_minimum: 50, withdrawal_fee_rate: 0.5, withdrawal_fee_minimum: 0.25 })
    } finally {
      await other.close()
    }
  })
})

describe('admin: create, update, list', () => {
  it('creates a channel; the fee rate is a percent on the wire and basis points stored', async () => {
    const c = await createChannel({ name: '  Gold   plan ', price: 19.9, fee_rate: 3.55, minimum_income: 1234.5, service_duration: 90 })
    expect(c).toMatchObject({ name: 'Gold plan', price: 19.9, fee_rate: 3.55, minimum_income: 1234.5, service_duration: 90, status: 'enable', open_sellers: 0 })
    const [row] = await t.db.select().from(channels).where(eq(channels.id, c.id))
    expect(row).toMatchObject({ priceFen: 1990, feeRateBp: 355, minimumIncomeFen: 123450, serviceDurationDays: 90, status: 'enable' })
    expect(row!.createdAt).toEqual(now)
  })

  it('accepts the bounds: rate 0 and 100, price 0.01, duration 1, values as form strings', async () => {
    expect(await createChannel({ fee_rate: 0, price: 0.01, service_duration: 1 })).toMatchObject({ fee_rate: 0, price: 0.01, service_duration: 1 })
    expect(await createChannel({ fee_rate: '100', price: '100000', minimum_income: '0.5', service_duration: '3650', status: 'disable' })).toMatchObject({
      fee_rate: 100,
      price: 100000,
      minimum_income: 0.5,
      service_duration: 3650,
      status: 'disable',
    })
  })

  it('refuses bad fields with a message per field, changing nothing', async () => {
    const before = await dbFingerprint(t.db)
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'channels.validation.nameRequired'],
      [{ name: '   ' }, 'name', 'channels.validation.nameRequired'],
      [{ name: 'x'.repeat(51) }, 'name', 'channels.validation.nameMax'],
      [{ price: 0 }, 'price', 'channels.validation.priceRange'],
      [{ price: 100000.01 }, 'price', 'channels.validation.priceRange'],
      [{ price: 1.234 }, 'price', 'channels.validation.decimals'],
      [{ price: 'abc' }, 'price', 'channels.validation.priceNumber'],
      [{ price: -1 }, 'price', 'channels.validation.priceRange'],
      [{ fee_rate: 100.01 }, 'fee_rate', 'channels.validation.feeRateRange'],
      [{ fee_rate: -0.5 }, 'fee_rate', 'channels.validation.feeRateRange'],
      [{ fee_rate: 3.555 }, 'fee_rate', 'channels.validation.decimals'],
      [{ fee_rate: '3,5' }, 'fee_rate', 'channels.validation.feeRateNumber'],
      [{ fee_rate: true }, 'fee_rate', 'channels.validation.feeRateNumber'],
      [{ minimum_income: 0.001 }, 'minimum_income', 'channels.validation.decimals'],
      [{ minimum_income: 10_000_000.01 }, 'minimum_income', 'channels.validation.minimumIncomeRange'],
      [{ service_duration: 0 }, 'service_duration', 'channels.validation.durationRange'],
      [{ service_duration: 1.5 }, 'service_duration', 'channels.validation.durationNumber'],
      [{ service_duration: 3651 }, 'service_duration', 'channels.validation.durationRange'],
      [{ service_duration: '7d' }, 'service_duration', 'channels.validation.durationNumber'],
      [{ status: 'paused' }, 'status', 'channels.validation.status'],
    ]
    for (const [over, field, message] of cases) {
      const res = await post<{ fieldErrors: Record<string, string[]> }>('/api/channels/admin/create', admin, {
        name: uniqueName('Bad'),
        price: 9.9,
        fee_rate: 2.5,
        minimum_income: 0,
        service_duration: 30,
        ...over,
      })
      expect(res.status, JSON.stringify(over)).toBe(422)
      expect(res.data.fieldErrors[field], JSON.stringify(over)).toEqual([message])
    }
    // Several fields wrong at once: each gets its message.
    const many = await post<{ fieldErrors: Record<string, string[]> }>('/api/channels/admin/create', admin, { name: '', price: 0, fee_rate: 101, minimum_income: -1, service_duration: 0 })
    expect(Object.keys(many.data.fieldErrors).sort()).toEqual(['fee_rate', 'minimum_income', 'name', 'price', 'service_duration'])
    for (const c of badInputs({
      method: 'POST',
      url: '/api/channels/admin/create',
      headers: bearer(admin),
      body: {
        fields: { name: { type: 'string', required: true, freeText: true }, service_duration: { type: 'int', required: true } },
        valid: { name: uniqueName('Bad'), price: 9.9, fee_rate: 2.5, minimum_income: 0, service_duration: 30 },
      },
    })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('refuses a name another channel has (case and spaces aside), also on rename, and when two admins race', async () => {
    const a = await createChannel({ name: 'Silver Plan' })
    const b = await createChannel()
    const dup = await post<{ fieldErrors: Record<string, string[]> }>('/api/channels/admin/create', admin, { name: ' silver   PLAN', price: 1, fee_rate: 1, minimum_income: 0, service_duration: 1 })
    expect(dup.status).toBe(422)
    expect(dup.data.fieldErrors.name).toEqual(['channels.validation.nameTaken'])
    const rename = await post<{ fieldErrors: Record<string, string[]> }>('/api/channels/admin/update', admin, { id: b.id, name: 'SILVER plan' })
    expect(rename.status).toBe(422)
    expect(rename.data.fieldErrors.name).toEqual(['channels.validation.nameTaken'])
    // Its own name (in another case) is fine.
    expect((await post('/api/channels/admin/update', admin, { id: a.id, name: 'silver plan' })).status).toBe(200)
    const name = uniqueName('Race')
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/channels/admin/create', admin, { name, price: 1, fee_rate: 1, minimum_income: 0, service_duration: 1 })),
    )
    expect(raced.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422])
  })

  it('updates any subset of the fields, and enables/disables', async () => {
    const c = await createChannel({ fee_rate: 4 })
    at('2026-11-21T00:00:00Z')
    const res = await post<ChannelOut & { updated_at: string }>('/api/channels/admin/update', admin, { id: c.id, fee_rate: 3.25, service_duration: '60' })
    expect(res.status).toBe(200)
    expect(res.msg).toBe('channels.saved')
    expect(res.data).toMatchObject({ id: c.id, name: c.name, price: c.price, fee_rate: 3.25, service_duration: 60, status: 'enable' })
    expect(res.data.updated_at).toBe('2026-11-21T00:00:00.000Z')
    expect((await post<ChannelOut>('/api/channels/admin/update', admin, { id: c.id, status: 'disable' })).data.status).toBe('disable')
    const bad = await post<{ fieldErrors: Record<string, string[]> }>('/api/channels/admin/update', admin, { id: c.id, fee_rate: 120 })
    expect(bad.data.fieldErrors.fee_rate).toEqual(['channels.validation.feeRateRange'])
    const missing = await post('/api/channels/admin/update', admin, { id: 999999, status: 'enable' })
    expect([missing.status, missing.msg]).toEqual([404, 'channels.notFound'])
  })

  it('lists every channel newest first, filtered by status and name', async () => {
    const name = uniqueName('Listed')
    const on = await createChannel({ name: `${name} on` })
    at('2026-11-20T05:00:00Z')
    const off = await createChannel({ name: `${name} off`, status: 'disable' })
    const all = await get<{ list: ChannelOut[]; total: number }>(`/api/channels/admin/list?keyword=${name}`, admin)
    expect(all.data.list.map((c) => c.id)).toEqual([off.id, on.id])
    expect(all.data.total).toBe(2)
    const disabled = await get<{ list: ChannelOut[] }>(`/api/channels/admin/list?keyword=${name}&status=disable`, admin)
    expect(disabled.data.list.map((c) => c.id)).toEqual([off.id])
  })

  it('is for admins only', async () => {
    const seller = await newSeller()
    const before = await dbFingerprint(t.db)
    expect((await get('/api/channels/admin/list', seller.token)).status).toBe(403)
    expect((await get('/api/channels/admin/list')).status).toBe(401)
    expect((await post('/api/channels/admin/create', seller.token, { name: 'x', price: 1, fee_rate: 1, minimum_income: 0, service_duration: 1 })).status).toBe(403)
    expect((await post('/api/channels/admin/update', seller.token, { id: 1, status: 'disable' })).status).toBe(403)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('the seller\'s list (GET /api/channels/list)', () => {
  it('offers enabled channels only, lowest rate first, with the caller\'s standing', async () => {
    const seller = await newSeller()
    const cheap = await createChannel({ fee_rate: 0.5, minimum_income: 100 })
    const open = await createChannel({ fee_rate: 1.5 })
    const off = await createChannel({ fee_rate: 0.1, status: 'disable' })
    const res = await get<ListOut>('/api/channels/list?pageSize=100', seller.token)
    expect(res.status).toBe(200)
    const ids = res.data.list.map((c) => c.id)
    expect(ids).toContain(cheap.id)
    expect(ids).toContain(open.id)
    expect(ids).not.toContain(off.id)
    expect(ids.indexOf(cheap.id)).toBeLessThan(ids.indexOf(open.id))
    expect(res.data.list.find((c) => c.id === cheap.id)).toMatchObject({ eligible: false, open_until: null })
    expect(res.data.list.find((c) => c.id === open.id)).toMatchObject({ eligible: true, open_until: null })
    expect(res.data.account).toEqual({ fee_rate: 5, default_fee_rate: 5, open: [], last_month: '2026-10', last_month_income: 0 })
    expect((await get('/api/channels/list')).status).toBe(401)
  })
})

describe('opening a channel', () => {
  it('creates a Pending channel order for its price through the payment pipeline, and the payment opens it', async () => {
    const seller = await newSeller()
    const c = await createChannel({ price: 29.9, fee_rate: 2, service_duration: 30 })
    const created = await openOrder(seller.token, c.id)
    expect(created.status).toBe(201)
    expect(created.data.payUrl).toContain('/api/payments/sandbox/checkout?')
    const row = await orderRow(created.data.orderNo)
    expect(row).toMatchObject({ productType: 'channel', channelId: c.id, shareId: null, sellerId: null, buyerId: seller.id, productName: c.name, amountFen: 2990, paymentStatus: 'Pending' })
    const status = await get<{ product_type: string; product_name: string; return_path: string; unicode: string | null; payment_status: string }>(
      `/api/orders/payment-status?orderNo=${created.data.orderNo}`,
    )
    expect(status.data).toMatchObject({
      product_type: 'channel',
      product_name: c.name,
      unicode: null,
      payment_status: 'Pending',
      return_path: `/dashboard/makemoney?order=${created.data.orderNo}`,
    })
    // The sandbox checkout returns to the make-money page with the order number.
    const url = new URL(created.data.payUrl!)
    const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), action: 'pay' })
    const paid = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/checkout', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() })
    expect(paid.statusCode).toBe(303)
    expect(paid.headers.location).toBe(`http://localhost:3000/dashboard/makemoney?order=${created.data.orderNo}`)
    expect(await orderRow(created.data.orderNo)).toMatchObject({ paymentStatus: 'Completed', feeFen: 0, sellerIncomeFen: 0 })
    const periods = await periodsOf(seller.id)
    expect(periods).toHaveLength(1)
    expect(periods[0]).toMatchObject({ channelId: c.id, feeRateBp: 200, startsAt: now, endsAt: new Date(now.getTime() + 30 * DAY) })
    const list = await get<ListOut>('/api/channels/list?pageSize=100', seller.token)
    expect(list.data.list.find((x) => x.id === c.id)!.open_until).toBe(new Date(now.getTime() + 30 * DAY).toISOString())
    expect(list.data.account.fee_rate).toBe(2)
    expect(list.data.account.open).toEqual([
      { channel_id: c.id, name: c.name, fee_rate: 2, starts_at: now.toISOString(), ends_at: new Date(now.getTime() + 30 * DAY).toISOString() },
    ])
    const listed = await get<{ list: ChannelOut[] }>(`/api/channels/admin/list?keyword=${c.name}`, admin)
    expect(listed.data.list[0]!.open_sellers).toBe(1)
  })

  it('WeChat: the order answers a QR code, and its payment status sends the console to the make-money page', async () => {
    const seller = await newSeller()
    const c = await createChannel()
    const created = await openOrder(seller.token, c.id, 'WeChat')
    expect(created.status).toBe(201)
    expect(created.data.qrCode).toBeTruthy()
    expect((await orderRow(created.data.orderNo)).paymentMethod).toBe('WeChat')
  })

  it('a replayed or racing notify opens it once; a tampered amount is rejected and opens nothing', async () => {
    const seller = await newSeller()
    const c = await createChannel({ price: 10 })
    const { data } = await openOrder(seller.token, c.id)
    const tampered = await t.app.inject(notify(data.orderNo, 1))
    expect(tampered.statusCode).toBeGreaterThanOrEqual(400)
    expect((await orderRow(data.orderNo)).paymentStatus).toBe('Pending')
    expect(await periodsOf(seller.id)).toHaveLength(0)
    const n = notify(data.orderNo, 1000)
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.inject(n)))
    expect(answers.every((a) => a.statusCode === 200)).toBe(true)
    expect((await t.app.inject(n)).statusCode).toBe(200)
    // The poll's gateway query settles through the same path: still once.
    await get(`/api/orders/payment-status?orderNo=${data.orderNo}`)
    expect(await periodsOf(seller.id)).toHaveLength(1)
    expect((await orderRow(data.orderNo)).paymentStatus).toBe('Completed')
  })

  it('paying again while open adds the next period after the current one', async () => {
    const seller = await newSeller()
    const c = await createChannel({ service_duration: 10 })
    await openPaid(seller, c)
    at('2026-11-25T04:00:00Z')
    await openPaid(seller, c)
    const [first, second] = await periodsOf(seller.id)
    expect(second!.startsAt).toEqual(first!.endsAt)
    expect(second!.endsAt).toEqual(new Date(first!.endsAt.getTime() + 10 * DAY))
    const list = await get<ListOut>('/api/channels/list?pageSize=100', seller.token)
    expect(list.data.list.find((x) => x.id === c.id)!.open_until).toBe(second!.endsAt.toISOString())
  })

  it('is refused for a disabled or unknown channel, without a session, and for a banned seller — changing nothing', async () => {
    const seller = await newSeller()
    const off = await createChannel({ status: 'disable' })
    const before = await dbFingerprint(t.db)
    const disabled = await openOrder(seller.token, off.id)
    expect([disabled.status, disabled.msg]).toEqual([409, 'channels.disabled'])
    const unknown = await openOrder(seller.token, 999999)
    expect([unknown.status, unknown.msg]).toEqual([404, 'channels.notFound'])
    expect((await post('/api/channels/open', undefined, { id: off.id, paymentMethod: 'Alipay' })).status).toBe(401)
    for (const c of badInputs({
      method: 'POST',
      url: '/api/channels/open',
      headers: bearer(seller.token),
      body: { fields: { id: { type: 'int', required: true }, paymentMethod: { type: 'string', required: true } }, valid: { id: off.id, paymentMethod: 'Alipay' } },
    })) {
      expectRejected(await t.app.inject({ ...c.request, remoteAddress: freshIp() }), c)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    const open = await createChannel()
    await post('/api/users/admin/update', admin, { id: seller.id, is_banned: 1 })
    const mid = await dbFingerprint(t.db)
    const banned = await openOrder(seller.token, open.id)
    expect(banned.status).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(mid)
  })

  it('needs last month\'s (Asia/Shanghai) net income to reach the minimum', async () => {
    const seller = await newSeller()
    const c = await createChannel({ minimum_income: 100 })
    // Last day of October in Shanghai (16:30 UTC on 31 Oct is 00:30 on 1 Nov: this month, not last).
    at('2026-10-31T15:30:00Z')
    await sell(seller, 60) // income 57.00 at 5 %
    at('2026-10-31T16:30:00Z')
    await sell(seller, 100) // income 95.00, but in November
    at('2026-11-20T04:00:00Z')
    const before = await dbFingerprint(t.db)
    const refused = await openOrder(seller.token, c.id)
    expect(refused.status).toBe(409)
    expect(refused.msg).toBe('channels.belowMinimum')
    expect(refused.data).toEqual({ minimum_income: 100, last_month_income: 57, last_month: '2026-10' })
    expect(await dbFingerprint(t.db)).toEqual(before)
    const list = await get<ListOut>('/api/channels/list?pageSize=100', seller.token)
    expect(list.data.account.last_month_income).toBe(57)
    expect(list.data.list.find((x) => x.id === c.id)!.eligible).toBe(false)

    at('2026-10-15T04:00:00Z')
    await sell(seller, 45) // 42.75 → 99.75, still short
    at('2026-11-20T04:00:00Z')
    expect((await openOrder(seller.token, c.id)).msg).toBe('channels.belowMinimum')
    at('2026-10-02T04:00:00Z')
    await sell(seller, 1) // 0.95 → 100.70
    at('2026-11-20T04:00:00Z')
    expect((await openOrder(seller.token, c.id)).status).toBe(201)
    // In December, last month is November: the 95.00 sold at 00:30 on 1 November is not enough.
    at('2026-12-01T00:00:00+08:00')
    expect((await openOrder(seller.token, c.id)).data).toMatchObject({ last_month: '2026-11', last_month_income: 95 })
  })

  it('counts refunds: a refund in the month takes its sale back', async () => {
    const seller = await newSeller()
    const c = await createChannel({ minimum_income: 50 })
    at('2026-10-10T04:00:00Z')
    const order = await sell(seller, 100) // 95.00
    at('2026-10-12T04:00:00Z')
    expect((await post('/api/orders/admin/refund', admin, { orderNo: order.orderNo })).status).toBe(200)
    at('2026-11-20T04:00:00Z')
    const refused = await openOrder(seller.token, c.id)
    expect(refused.msg).toBe('channels.belowMinimum')
    expect(refused.data).toMatchObject({ last_month_income: 0 })
  })

  it('a payment arriving after the channel was disabled still opens it (the money was taken)', async () => {
    const seller = await newSeller()
    const c = await createChannel()
    const { data } = await openOrder(seller.token, c.id)
    await post('/api/channels/admin/update', admin, { id: c.id, status: 'disable' })
    expect((await t.app.inject(notify(data.orderNo, yuanToFen(c.price)))).statusCode).toBe(200)
    expect(await periodsOf(seller.id)).toHaveLength(1)
  })

  it('an admin refund of a channel order ends its period', async () => {
    const seller = await newSeller()
    const c = await createChannel({ fee_rate: 1 })
    const orderNo = await openPaid(seller, c)
    at('2026-11-22T04:00:00Z')
    expect((await post('/api/orders/admin/refund', admin, { orderNo })).status).toBe(200)
    const [period] = await periodsOf(seller.id)
    expect(period!.endsAt).toEqual(now)
    expect((await get<ListOut>('/api/channels/list', seller.token)).data.account.fee_rate).toBe(5)
    expect((await sell(seller, 10)).feeRateBp).toBe(500)
  })
})

describe('the fee rate of sales', () => {
  it('is the open channel\'s rate while it is open, the default after it ends, and stays what it was when paid', async () => {
    const seller = await newSeller()
    const c = await createChannel({ fee_rate: 2, service_duration: 7 })
    const before = await sell(seller, 100)
    expect(before).toMatchObject({ feeRateBp: 500, feeFen: 500, sellerIncomeFen: 9500 })
    await openPaid(seller, c)
    const during = await sell(seller, 100)
    expect(during).toMatchObject({ feeRateBp: 200, feeFen: 200, sellerIncomeFen: 9800 })
    // The admin raises the channel's rate: the period already paid keeps 2 %.
    await post('/api/channels/admin/update', admin, { id: c.id, fee_rate: 4 })
    at('2026-11-26T04:00:00Z')
    expect((await sell(seller, 100)).feeRateBp).toBe(200)
    // The last moment inside the period, and the first after it.
    at(new Date(new Date('2026-11-20T04:00:00Z').getTime() + 7 * DAY - 1000).toISOString())
    expect((await sell(seller, 100)).feeRateBp).toBe(200)
    at(new Date(new Date('2026-11-20T04:00:00Z').getTime() + 7 * DAY).toISOString())
    const after = await sell(seller, 100)
    expect(after).toMatchObject({ feeRateBp: 500, feeFen: 500 })
    // Sales paid earlier keep their rate and income.
    expect(await orderRow(during.orderNo)).toMatchObject({ feeRateBp: 200, feeFen: 200, sellerIncomeFen: 9800 })
    expect(await orderRow(before.orderNo)).toMatchObject({ feeRateBp: 500 })
    expect((await get<ListOut>('/api/channels/list', seller.token)).data.account).toMatchObject({ fee_rate: 5, open: [] })
  })

  it('is the lowest of several open channels', async () => {
    const seller = await newSeller()
    const a = await createChannel({ fee_rate: 3, service_duration: 30 })
    const b = await createChannel({ fee_rate: 1.25, service_duration: 5 })
    await openPaid(seller, a)
    await openPaid(seller, b)
    expect((await sell(seller, 100)).feeRateBp).toBe(125)
    expect((await get<ListOut>('/api/channels/list', seller.token)).data.account.fee_rate).toBe(1.25)
    at('2026-11-26T04:00:00Z') // b has ended, a still runs
    expect((await sell(seller, 100)).feeRateBp).toBe(300)
  })

  it('of another seller is not affected', async () => {
    const seller = await newSeller()
    const other = await newSeller()
    await openPaid(seller, await createChannel({ fee_rate: 1 }))
    expect((await sell(other, 100)).feeRateBp).toBe(500)
  })
})

describe('channel orders in the order lists', () => {
  it('show in the buyer\'s and the admin\'s lists with the channel\'s name and no share code, not in a seller\'s', async () => {
    const seller = await newSeller()
    const c = await createChannel()
    const orderNo = await openPaid(seller, c)
    type Row = { orderNo: string; product_name: string; product_type: string; unicode: string | null; seller_name: string | null; username: string | null }
    const mine = await get<{ list: Row[] }>('/api/orders/list', seller.token)
    expect(mine.data.list.find((o) => o.orderNo === orderNo)).toMatchObject({ product_name: c.name, product_type: 'channel', unicode: null, seller_name: null })
    const all = await get<{ list: Row[] }>(`/api/orders/admin/list?orderNo=${orderNo}`, admin)
    expect(all.data.list[0]).toMatchObject({ product_name: c.name, product_type: 'channel', unicode: null, username: seller.userName })
    const income = await get<{ list: Row[] }>('/api/orders/seller/list', seller.token)
    expect(income.data.list.map((o) => o.orderNo)).not.toContain(orderNo)
    const shareOrder = await sell(seller, 5)
    const byShare = await get<{ list: Row[] }>(`/api/orders/admin/list?orderNo=${shareOrder.orderNo}`, admin)
    expect(byShare.data.list[0]!.product_type).toBe('share')
  })
})

describe('the periods a seller holds', () => {
  it('are one per paid order (unique), so a replay inserts nothing', async () => {
    const seller = await newSeller()
    const c = await createChannel()
    const orderNo = await openPaid(seller, c)
    const row = await orderRow(orderNo)
    const rows = await t.db.select().from(sellerChannels).where(and(eq(sellerChannels.sellerId, seller.id), eq(sellerChannels.orderId, row.id)))
    expect(rows).toHaveLength(1)
  })
})
