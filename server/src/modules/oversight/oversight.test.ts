// Admin oversight of accounts (issue 9 B) through the API: one user's view, the audit of admin changes,
// the login-record filters, and "ban seller and refund buyers" — previewed, done once, repeated (nothing
// twice), raced, crashed half-way and resumed — on PGlite and PostgreSQL.
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp, USER_PASSWORD, uniqueEmail } from '../../../test/helpers.ts'
import { auditEvents, fraudActions, ledgerEntries, loginRecords, orders, shares } from '../../db/schema/index.ts'
import { newUnicode } from '../shares/rules.ts'
import { FRAUD_LEASE_MS } from './rules.ts'

const DAY = 24 * 3600 * 1000
let now = new Date('2026-11-20T04:00:00Z').getTime()
let t: TestApp
let admin: string
let adminId: number

beforeAll(async () => {
  t = await buildTestApp({ config: { seedDemo: false, fraudRefundWindowDays: 30 }, clock: () => new Date(now) })
  admin = await t.login('admin', ADMIN_PASSWORD)
  adminId = (await t.app.inject({ url: '/api/users/userInfo', headers: bearer(admin) })).json().data.id
})
afterAll(() => t?.close())

const get = (url: string, token = admin) => t.app.inject({ url, headers: bearer(token) })
const post = (url: string, payload: unknown, token = admin) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object })
const preview = (id: number) => get(`/api/users/admin/fraud-preview?id=${id}`)
const act = (id: number) => post('/api/users/admin/fraud-action', { id, confirm: true })
const trail = async (subject: string) =>
  (await get(`/api/audit/admin/list?subject=${subject}`)).json().data.list as {
    action: string
    from: string | null
    to: string | null
    reason: string | null
    actor: { id: number } | null
  }[]

/** A seller (logged in) with `n` approved shares at ¥10.00. */
async function seller(n = 2) {
  const u = await createUser(t.db)
  const rows = []
  for (let i = 0; i < n; i++) {
    const [s] = await t.db
      .insert(shares)
      .values({
        userId: u.id,
        title: `Notes ${i}`,
        unicode: newUnicode(),
        type: 'text',
        contentEnc: t.app.cipher.encrypt('secret'),
        priceFen: 1000,
        status: 'approved',
      })
      .returning()
    rows.push(s!)
  }
  return { id: u.id, userName: u.userName, token: await t.login(u.userName, USER_PASSWORD), shares: rows }
}

/** The buyer key each order's creating client received (decision 102). */
const buyerKeys = new Map<string, string>()

/** An order paid through the sandbox gateway's signed notify (the real settlement path): Completed. */
async function paid(unicode: string, buyer?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/orders/create',
    remoteAddress: freshIp(),
    headers: buyer ? bearer(buyer) : {},
    payload: { unicode, paymentMethod: 'Alipay' },
  })
  expect(res.statusCode, res.body).toBe(201)
  const { orderNo, buyerKey } = res.json().data as { orderNo: string; buyerKey: string }
  buyerKeys.set(orderNo, buyerKey)
  const n = t.app.payments.sandbox!.settle(orderNo, 1000, true)
  const notify = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
  expect(notify.statusCode, notify.body).toBe(200)
  return orderNo
}

const orderRow = async (orderNo: string) => (await t.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
const refundEntries = async (orderNo: string) =>
  t.db
    .select({ amountFen: ledgerEntries.amountFen })
    .from(ledgerEntries)
    .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
    .where(and(eq(orders.orderNo, orderNo), eq(ledgerEntries.kind, 'refund')))

describe('ban seller and refund buyers', () => {
  it('previews the shares, the unrevealed paid orders in the window and their total — and changes nothing', async () => {
    const s = await seller(2)
    const inWindow = [await paid(s.shares[0]!.unicode), await paid(s.shares[1]!.unicode)]
    const revealed = await paid(s.shares[0]!.unicode)
    // Shown to its buyer (the browser that paid, decision 102): left out of the refund.
    const byBuyer = await t.app.inject({ url: `/api/share?third_party_trade_no=${revealed}`, headers: { 'x-buyer-key': buyerKeys.get(revealed)! } })
    expect(byBuyer.json().data.content).toBe('secret')
    // Opened by the seller itself: on record, and still refunded.
    await t.app.inject({ url: `/api/share?third_party_trade_no=${inWindow[0]}`, headers: bearer(s.token) })
    const old = await paid(s.shares[1]!.unicode)
    await t.db
      .update(orders)
      .set({ paidAt: new Date(now - 31 * DAY) })
      .where(eq(orders.orderNo, old))
    const before = await dbFingerprint(t.db)
    const res = await preview(s.id)
    expect(res.statusCode, res.body).toBe(200)
    const p = res.json().data
    expect(p).toMatchObject({ seller: { id: s.id, is_banned: 0 }, window_days: 30, order_count: 2, total: 20, run: null })
    expect(p.orders.map((o: { orderNo: string }) => o.orderNo).sort()).toEqual([...inWindow].sort())
    expect(p.shares.map((x: { id: number }) => x.id)).toEqual(s.shares.map((x) => x.id))
    expect(p.reveals.total).toBe(2)
    expect(p.reveals.list.map((r: { orderNo: string; how: string; counts: boolean }) => [r.orderNo, r.how, r.counts]).sort()).toEqual(
      [
        [revealed, 'buyer_browser', true],
        [inWindow[0], 'owner', false],
      ].sort(),
    )
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('bans, ends the sessions, takes every share down and refunds each order once, all in the audit trail; a repeat refunds nothing', async () => {
    const s = await seller(2)
    const buyer = await createUser(t.db)
    const buyerToken = await t.login(buyer.userName, USER_PASSWORD)
    const nos = [await paid(s.shares[0]!.unicode, buyerToken), await paid(s.shares[1]!.unicode), await paid(s.shares[0]!.unicode)]
    const res = await act(s.id)
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json()
    expect(r.msg).toBe('oversight.fraud.done')
    expect(r.data).toMatchObject({ banned: true, shares_taken_down: 2, run: { state: 'done', refunded_count: 3, refunded_total: 30 } })
    expect(r.data.refunded.map((x: { orderNo: string }) => x.orderNo).sort()).toEqual([...nos].sort())
    for (const no of nos) {
      expect(await orderRow(no)).toMatchObject({ paymentStatus: 'Refund' })
      expect(await refundEntries(no)).toEqual([{ amountFen: -950 }])
      const o = await orderRow(no)
      expect((await trail(`order:${o.id}`)).map((e) => [e.action, e.to, e.actor?.id])).toEqual([['refund', 'refunded', adminId]])
    }
    // The seller is logged out and banned; the shares are not for sale.
    expect((await get('/api/users/userInfo', s.token)).statusCode).toBe(401)
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: s.userName, password: USER_PASSWORD } })).statusCode,
    ).toBeGreaterThanOrEqual(400)
    const buy = await t.app.inject({
      method: 'POST',
      url: '/api/orders/create',
      remoteAddress: freshIp(),
      payload: { unicode: s.shares[0]!.unicode, paymentMethod: 'Alipay' },
    })
    expect(buy.statusCode).toBeGreaterThanOrEqual(400)
    for (const sh of s.shares)
      expect((await trail(`share:${sh.id}`)).map((e) => [e.action, e.from, e.to])).toEqual([['fraud_take_down', 'approved', 'violation']])
    expect((await trail(`user:${s.id}`)).map((e) => e.action)).toEqual(['ban', 'fraud_action_start', 'fraud_action_done'])
    // The buyer sees the refund in their orders.
    const mine = (await get('/api/orders/list', buyerToken)).json().data.list
    expect(mine[0]).toMatchObject({ orderNo: nos[0], payment_status: 'Refund' })

    const refundsBefore = (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.kind, 'refund'))
    )[0]!.n
    const again = await act(s.id)
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().data).toMatchObject({ banned: false, shares_taken_down: 0, refunded: [], run: { state: 'done', refunded_count: 0 } })
    expect(
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(ledgerEntries)
          .where(eq(ledgerEntries.kind, 'refund'))
      )[0]!.n,
    ).toBe(refundsBefore)
    expect((await preview(s.id)).json().data).toMatchObject({ order_count: 0, total: 0, shares: [] })
  })

  it('resumes after a crash half-way: every order refunded exactly once, ledger and counts right', async () => {
    const s = await seller(1)
    const nos = []
    for (let i = 0; i < 5; i++) nos.push(await paid(s.shares[0]!.unicode))
    const sandbox = t.app.payments.sandbox!
    const real = sandbox.refund.bind(sandbox)
    const asked: string[] = []
    // The 3rd refund reaches the gateway (it refunds), then the process "dies" before the commit.
    const spy = vi.spyOn(sandbox, 'refund').mockImplementation(async (input) => {
      const result = await real(input)
      asked.push(input.refundNo)
      if (asked.length === 3) throw new Error('crash after the gateway refunded')
      return result
    })
    try {
      const first = await act(s.id)
      expect(first.statusCode, first.body).toBe(502)
      expect(first.json()).toMatchObject({ msg: 'oversight.fraud.interrupted', data: { refunded: 2 } })
      expect((await t.db.select().from(fraudActions).where(eq(fraudActions.sellerId, s.id)))[0]).toMatchObject({
        state: 'interrupted',
        refundedCount: 2,
        refundedFen: 2000,
      })
      expect((await preview(s.id)).json().data).toMatchObject({ order_count: 3, run: { state: 'interrupted' } })

      const second = await act(s.id)
      expect(second.statusCode, second.body).toBe(200)
      expect(second.json().data).toMatchObject({ banned: false, refunded: expect.any(Array), run: { state: 'done', refunded_count: 5, refunded_total: 50 } })
      expect(second.json().data.refunded).toHaveLength(3)
    } finally {
      spy.mockRestore()
    }
    for (const no of nos) {
      expect((await orderRow(no)).paymentStatus).toBe('Refund')
      expect(await refundEntries(no)).toEqual([{ amountFen: -950 }])
    }
    // One refund number per order at the gateway; the crashed one was asked twice under its one number
    // (a gateway refunds a refund number once).
    expect(new Set(asked).size).toBe(5)
    expect(asked).toHaveLength(6)
  })

  it('a run that died holding its lease blocks a second one until the lease is over, then is resumed', async () => {
    const s = await seller(1)
    const no = await paid(s.shares[0]!.unicode)
    await t.db
      .insert(fraudActions)
      .values({ sellerId: s.id, actorId: adminId, state: 'running', since: new Date(now - DAY), leaseUntil: new Date(now + FRAUD_LEASE_MS) })
    const blocked = await act(s.id)
    expect(blocked.statusCode).toBe(409)
    expect(blocked.json().msg).toBe('oversight.fraud.running')
    expect((await orderRow(no)).paymentStatus).toBe('Completed')
    now += FRAUD_LEASE_MS + 1000
    const resumed = await act(s.id)
    expect(resumed.statusCode, resumed.body).toBe(200)
    expect(resumed.json().data.refunded.map((x: { orderNo: string }) => x.orderNo)).toEqual([no])
  })

  it('two admins at once: the orders are refunded once', async () => {
    const s = await seller(1)
    const nos = [await paid(s.shares[0]!.unicode), await paid(s.shares[0]!.unicode), await paid(s.shares[0]!.unicode)]
    const answers = await Promise.all([act(s.id), act(s.id)])
    const codes = answers.map((a) => a.statusCode).sort()
    expect(codes[0]).toBe(200)
    expect([200, 409]).toContain(codes[1])
    const refunded = answers.filter((a) => a.statusCode === 200).flatMap((a) => a.json().data.refunded.map((x: { orderNo: string }) => x.orderNo))
    expect(refunded.sort()).toEqual([...nos].sort())
    for (const no of nos) expect(await refundEntries(no)).toEqual([{ amountFen: -950 }])
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'user'), eq(auditEvents.subjectId, s.id), eq(auditEvents.action, 'ban')))
    expect(events).toHaveLength(1)
  })

  it('refuses bad input with a clear 4xx, itself, an admin, an unknown user and non-admins — changing nothing', async () => {
    const s = await seller(1)
    await paid(s.shares[0]!.unicode)
    const other = await createUser(t.db, { role: 'admin' })
    const before = await dbFingerprint(t.db)
    for (const c of badInputs({
      method: 'POST',
      url: '/api/users/admin/fraud-action',
      headers: bearer(admin),
      body: { fields: { id: { type: 'int', required: true } }, valid: { id: s.id, confirm: true } },
    })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    for (const c of badInputs({
      method: 'GET',
      url: '/api/users/admin/fraud-preview',
      headers: bearer(admin),
      query: { fields: { id: { type: 'int', required: true } }, valid: { id: String(s.id) } },
    })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    for (const confirm of [false, 'true', 1, undefined]) {
      const res = await post('/api/users/admin/fraud-action', { id: s.id, confirm })
      expect(res.statusCode, String(confirm)).toBe(422)
      expect(res.json().data.fieldErrors.confirm).toEqual(['oversight.validation.confirm'])
    }
    expect((await act(adminId)).json()).toMatchObject({ code: 409, msg: 'oversight.fraud.self' })
    expect((await act(other.id)).json()).toMatchObject({ code: 409, msg: 'oversight.fraud.admin' })
    expect((await act(999999)).statusCode).toBe(404)
    expect((await preview(999999)).statusCode).toBe(404)
    expect((await post('/api/users/admin/fraud-action', { id: s.id, confirm: true }, s.token)).statusCode).toBe(403)
    expect((await get(`/api/users/admin/fraud-preview?id=${s.id}`, s.token)).statusCode).toBe(403)
    expect((await get(`/api/users/admin/detail?id=${s.id}`, s.token)).statusCode).toBe(403)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe("an admin's view and changes of a user", () => {
  it('shows the account, its shares, orders both ways, logins and income', async () => {
    const s = await seller(1)
    const no = await paid(s.shares[0]!.unicode)
    const bought = await seller(1)
    const boughtNo = await paid(bought.shares[0]!.unicode, s.token)
    const res = await get(`/api/users/admin/detail?id=${s.id}`)
    expect(res.statusCode, res.body).toBe(200)
    const d = res.json().data
    expect(d.user).toMatchObject({ id: s.id, user_name: s.userName })
    expect(d.shares).toMatchObject({ total: 1, list: [{ id: s.shares[0]!.id }] })
    expect(d.sellerOrders).toMatchObject({ total: 1, list: [{ orderNo: no }] })
    expect(d.buyerOrders).toMatchObject({ total: 1, list: [{ orderNo: boughtNo }] })
    expect(d.loginRecords.total).toBeGreaterThanOrEqual(1)
    expect(d.income).toMatchObject({ total: 9.5, today: 9.5, unsettled: 9.5 })
  })

  it('records ban, unban, role and field edits in the audit trail; bad values get per-field 422s and change nothing', async () => {
    const u = await createUser(t.db)
    const taken = await createUser(t.db)
    const update = (body: object) => post('/api/users/admin/update', { id: u.id, ...body })
    expect((await update({ is_banned: 1 })).statusCode).toBe(200)
    expect((await update({ is_banned: 1 })).statusCode).toBe(200) // a repeat records nothing
    expect((await update({ is_banned: 0 })).statusCode).toBe(200)
    expect((await update({ role: 'admin' })).statusCode).toBe(200)
    const email = uniqueEmail()
    const edited = await update({ email, phone: '13912345678', alipayRealName: '张三', alipayAccount: email })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(edited.json().data).toMatchObject({ email, phone: '13912345678', alipayRealName: '张三', alipayAccount: email })
    expect((await trail(`user:${u.id}`)).map((e) => [e.action, e.from, e.to, e.reason])).toEqual([
      ['ban', 'active', 'banned', null],
      ['unban', 'banned', 'active', null],
      ['role', 'user', 'admin', null],
      ['edit', null, null, 'email, phone, alipayRealName, alipayAccount'],
    ])
    const before = await dbFingerprint(t.db)
    const bad = async (body: object, field: string, msg: string, status = 422) => {
      const res = await update(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(status)
      expect(res.json().data.fieldErrors[field]).toEqual([msg])
    }
    await bad({ email: 'not-an-email' }, 'email', 'validation.emailFormat')
    await bad({ phone: '123' }, 'phone', 'validation.phoneFormat')
    await bad({ user_name: 'x' }, 'user_name', 'validation.usernameLength')
    await bad({ alipayAccount: 'nope' }, 'alipayAccount', 'validation.alipayAccountFormat')
    await bad({ status: 'gone' }, 'status', 'oversight.validation.userStatus')
    await bad({ email: taken.email }, 'email', 'auth.emailTaken', 409)
    expect(await dbFingerprint(t.db)).toEqual(before)
    // Null clears a field.
    expect((await update({ phone: null })).json().data.phone).toBeNull()
  })

  it('filters login records by user, IP and date range; bad filters are 422', async () => {
    const u = await createUser(t.db)
    await t.db.insert(loginRecords).values([
      { userId: u.id, userName: u.userName, email: u.email, browser: 'Chrome', device: 'PC', ip: '10.9.8.7', createdAt: new Date('2026-01-05T02:00:00Z') },
      { userId: u.id, userName: u.userName, email: u.email, browser: 'Chrome', device: 'PC', ip: '10.9.8.6', createdAt: new Date('2026-01-07T02:00:00Z') },
    ])
    const list = async (q: string) => {
      const res = await get(`/api/loginRecords/admin/list?${q}`)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json().data.list as { loginIp: string }[]).map((r) => r.loginIp)
    }
    expect(await list(`uid=${u.id}`)).toEqual(['10.9.8.6', '10.9.8.7'])
    expect(await list(`uid=${u.id}&ip=10.9.8.7`)).toEqual(['10.9.8.7'])
    expect(await list(`uid=${u.id}&from=2026-01-06&to=2026-01-07`)).toEqual(['10.9.8.6'])
    expect(await list(`ip=10.9.8.7&from=2026-01-05&to=2026-01-05`)).toEqual(['10.9.8.7'])
    for (const q of ['uid=x', 'uid=0', 'ip=abc;drop', 'from=2026-13-01', 'from=2026-01-07&to=2026-01-05']) {
      expect((await get(`/api/loginRecords/admin/list?${q}`)).statusCode, q).toBe(422)
    }
  })
})
