// Income (issue 7): GET /api/income/summary and /api/income/daily — who may ask, what they answer
// through the real payment pipeline on a movable clock, and that the pre-aggregates they read stay
// equal to the ledger's sums under racing postings. The random histories are in income.property.test.ts.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IncomeDaily, IncomeSummary } from '#contract/income.ts'
import { fenToYuan, yuanToFen } from '#contract/money.ts'
import type { Order } from '#contract/orders.ts'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { ledgerEntries, orders, sellerBalances, sellerDailyIncome, shares, users, withdrawals } from '../../db/schema/index.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, type TestApp, uniquePhone } from '../../../test/helpers.ts'
import { startSession } from '../credentials/sessions.ts'
import { postRefund, postSale, postWithdrawal, postWithdrawalReversal, unsettledFen, withdrawableFen } from '../ledger/service.ts'
import { newOrderNo } from '../orders/rules.ts'

const HOUR = 3600_000
let t: TestApp
let admin: string
// 2026-11-30 22:00 in Shanghai: two hours before a day and a month end.
let now = new Date('2026-11-30T14:00:00Z').getTime()

beforeAll(async () => {
  t = await buildTestApp({ clock: () => new Date(now) })
  admin = await t.login('admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())

/** A seller ready to publish (phone bound, terms agreed) and their token. */
async function newSeller() {
  const u = await createUser(t.db, { phone: uniquePhone() })
  await t.db.update(users).set({ termsAgreedAt: new Date(now) }).where(eq(users.id, u.id))
  return { id: u.id, token: await startSession(t.db, u.id) }
}

async function approvedShare(token: string, priceFen: number) {
  const res = await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(token), payload: newShareBody(buildShare({ priceFen })) })
  expect(res.statusCode, res.body).toBe(201)
  const s = res.json().data as { id: number; unicode: string }
  await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status: 'approved' } })
  return s
}

/** A visitor buys the share and pays in the sandbox (its notify, through the real settlement). */
async function buy(unicode: string, amountFen: number): Promise<string> {
  const created = await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode, paymentMethod: 'Alipay' } })
  expect(created.statusCode, created.body).toBe(201)
  const { orderNo } = created.json().data as { orderNo: string }
  const n = t.app.payments.sandbox!.settle(orderNo, amountFen, true)
  const res = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
  expect(res.statusCode, res.body).toBe(200)
  return orderNo
}

async function summary(token: string): Promise<IncomeSummary> {
  const res = await t.app.inject({ url: '/api/income/summary', headers: bearer(token) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
async function daily(token: string, days?: number): Promise<IncomeDaily> {
  const res = await t.app.inject({ url: `/api/income/daily${days === undefined ? '' : `?days=${days}`}`, headers: bearer(token) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().data
}
async function sellerOrder(token: string, orderNo: string): Promise<Order> {
  const res = await t.app.inject({ url: `/api/orders/seller/list?orderNo=${orderNo}`, headers: bearer(token) })
  return (res.json().data.list as Order[])[0]!
}

describe('who may ask', () => {
  it('answers only a logged-in caller (401 otherwise), with their own figures: a new account has zeros and 30 zero days', async () => {
    for (const url of ['/api/income/summary', '/api/income/daily']) {
      const res = await t.app.inject({ url })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ code: 401, msg: 'auth.unauthorized' })
      expect((await t.app.inject({ url, headers: bearer('not-a-token') })).statusCode).toBe(401)
    }
    const fresh = await newSeller()
    expect(await summary(fresh.token)).toEqual({ withdrawable: 0, month: 0, today: 0, unsettled: 0, total: 0 })
    const { list } = await daily(fresh.token)
    expect(list).toHaveLength(30)
    expect(list.at(-1)).toEqual({ day: '2026-11-30', income: 0, orders: 0 })
    expect(list[0]!.day).toBe('2026-11-01')
    expect(list.every((d) => d.income === 0 && d.orders === 0)).toBe(true)
  })

  it('days is 1 to 90 (default 30); anything else is a 422 naming the field, and changes nothing', async () => {
    const { token } = await newSeller()
    expect((await daily(token, 1)).list).toHaveLength(1)
    expect((await daily(token, 90)).list).toHaveLength(90)
    const before = await dbFingerprint(t.db)
    for (const days of ['0', '91', '-1', '1.5', 'abc', '', '1e9', '99999999999999999999']) {
      const res = await t.app.inject({ url: `/api/income/daily?days=${encodeURIComponent(days)}`, headers: bearer(token) })
      expect(res.statusCode, `days=${days}`).toBe(422)
      const messages = res.json().data.fieldErrors.days as string[]
      expect(messages.length, `days=${days}`).toBeGreaterThan(0)
      for (const m of messages) expect(['income.daysRange', 'validation.number'], `days=${days}`).toContain(m)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('figures through the payment pipeline', () => {
  it('a sale is unsettled until its settle time, then withdrawable; days and the month turn over in Asia/Shanghai', async () => {
    const seller = await newSeller()
    const other = await newSeller()
    const share = await approvedShare(seller.token, 2000)
    const start = now
    // 22:00 on 30 November: 20.00 paid, 5% fee → 19.00 income, settled 24 h later.
    const first = await buy(share.unicode, 2000)
    expect(await summary(seller.token)).toEqual({ withdrawable: 0, month: 19, today: 19, unsettled: 19, total: 19 })
    expect((await daily(seller.token, 2)).list).toEqual([
      { day: '2026-11-29', income: 0, orders: 0 },
      { day: '2026-11-30', income: 19, orders: 1 },
    ])
    const order = await sellerOrder(seller.token, first)
    expect(order).toMatchObject({ payment_status: 'Completed', settle_at: new Date(start + 24 * HOUR).toISOString(), settled: false })
    // Nobody else's figures move.
    expect(await summary(other.token)).toEqual({ withdrawable: 0, month: 0, today: 0, unsettled: 0, total: 0 })

    // 02:00 on 1 December: a new day and a new month; a second sale.
    now = start + 4 * HOUR
    await buy(share.unicode, 2000)
    expect(await summary(seller.token)).toEqual({ withdrawable: 0, month: 19, today: 19, unsettled: 38, total: 38 })
    expect((await daily(seller.token, 3)).list).toEqual([
      { day: '2026-11-29', income: 0, orders: 0 },
      { day: '2026-11-30', income: 19, orders: 1 },
      { day: '2026-12-01', income: 19, orders: 1 },
    ])

    // Exactly at the first sale's settle time it is withdrawable.
    now = start + 24 * HOUR - 1
    expect((await summary(seller.token)).withdrawable).toBe(0)
    expect((await sellerOrder(seller.token, first)).settled).toBe(false)
    now = start + 24 * HOUR
    expect(await summary(seller.token)).toEqual({ withdrawable: 19, month: 19, today: 19, unsettled: 19, total: 38 })
    expect((await sellerOrder(seller.token, first)).settled).toBe(true)
    // The figures are the ledger's own: unsettledFen and withdrawableFen agree.
    expect(yuanToFen((await summary(seller.token)).unsettled)).toBe(await unsettledFen(t.db, seller.id, new Date(now)))
    expect(yuanToFen((await summary(seller.token)).withdrawable)).toBe(await withdrawableFen(t.db, seller.id, new Date(now)))
  })

  it('a refund of settled income after a withdrawal takes withdrawable below zero; of unsettled income, it leaves unsettled', async () => {
    now = new Date('2026-12-10T02:00:00Z').getTime() // 10:00 on 10 December in Shanghai
    const seller = await newSeller()
    const share = await approvedShare(seller.token, 1000)
    const settledSale = await buy(share.unicode, 1000) // 9.50
    now += 25 * HOUR
    const unsettledSale = await buy(share.unicode, 1000) // 9.50, unsettled for 24 h
    // The whole withdrawable amount is withdrawn (the withdrawal itself is the withdrawals area's; its
    // ledger posting is what the figures read).
    const [w] = await t.db
      .insert(withdrawals)
      .values({ userId: seller.id, amountFen: 950, feeFen: 10, actualFen: 940, alipayAccount: '13800000000', alipayRealName: 'Test', createdAt: new Date(now) })
      .returning()
    await t.db.transaction((tx) => postWithdrawal(tx, w!, new Date(now)))
    expect(await summary(seller.token)).toMatchObject({ withdrawable: 0, unsettled: 9.5, total: 19 })

    now += HOUR
    for (const orderNo of [settledSale, unsettledSale]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo } })
      expect(res.statusCode, res.body).toBe(200)
    }
    // 12:00 on 11 December: today's net is the second sale less both refunds; this month's is zero.
    expect(await summary(seller.token)).toEqual({ withdrawable: -9.5, month: 0, today: -9.5, unsettled: 0, total: 0 })
    expect((await daily(seller.token, 2)).list).toEqual([
      { day: '2026-12-10', income: 9.5, orders: 1 },
      { day: '2026-12-11', income: -9.5, orders: 1 },
    ])
    expect((await summary(seller.token)).withdrawable).toBe(fenToYuan(await withdrawableFen(t.db, seller.id, new Date(now))))
    const refunded = await sellerOrder(seller.token, unsettledSale)
    expect(refunded).toMatchObject({ payment_status: 'Refund', settled: false })

    // A rejected withdrawal gives the money back: withdrawable is 0 again.
    await t.db.transaction((tx) => postWithdrawalReversal(tx, w!, new Date(now)))
    expect((await summary(seller.token)).withdrawable).toBe(0)
  })
})

describe('pre-aggregates', () => {
  const shanghaiDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(d)

  it('equal the sums of ledger_entries after racing postings (replays, refunds, withdrawals, rejections, across midnight)', async () => {
    const sellers = await Promise.all([newSeller(), newSeller(), newSeller()])
    const [share] = await t.db
      .insert(shares)
      .values({ userId: sellers[0]!.id, title: 'Race', unicode: 'Race2345', type: 'text', contentEnc: 'x', priceFen: 100, status: 'approved' })
      .returning()
    // 23:59:59.9 on a Shanghai day ± a little: the postings land on both sides of midnight.
    const midnight = new Date('2026-12-31T16:00:00Z').getTime()
    const at = (i: number) => new Date(midnight + (i % 2 === 0 ? -100 - i : i))
    const made = await t.db
      .insert(orders)
      .values(
        Array.from({ length: 36 }, (_, i) => ({
          orderNo: newOrderNo(at(i)),
          shareId: share!.id,
          sellerId: sellers[i % 3]!.id,
          productName: 'Race',
          amountFen: 1000 + i,
          paymentMethod: 'Alipay' as const,
          provider: 'sandbox' as const,
          paymentStatus: 'Completed' as const,
          feeFen: 50,
          sellerIncomeFen: 950 + i,
          // Settled at once, so the racing withdrawals below stay within what is withdrawable (the
          // database refuses more, decision 111).
          settleAt: at(i),
          paidAt: at(i),
          expiresAt: new Date(midnight + HOUR),
        })),
      )
      .returning()
    // Every sale posted three times at once, from separate transactions.
    const posted = await Promise.all(made.flatMap((o, i) => [0, 1, 2].map(() => t.db.transaction((tx) => postSale(tx, o, at(i))))))
    expect(posted.filter(Boolean)).toHaveLength(36)
    const ws = await t.db
      .insert(withdrawals)
      .values(sellers.flatMap((s) => [1, 2].map((k) => ({ userId: s.id, amountFen: 500 * k, feeFen: 10, actualFen: 500 * k - 10, alipayAccount: '13800000000', alipayRealName: 'Test' }))))
      .returning()
    // Refunds of a quarter of the sales, three of each seller's twelve (twice each), withdrawals (twice
    // each) and rejections of half of them (twice each), all racing.
    const later = new Date(midnight + 5_000)
    const raced = await Promise.all([
      ...made.filter((_, i) => i % 4 === 0).flatMap((o) => [0, 1].map(() => t.db.transaction((tx) => postRefund(tx, o, later)))),
      ...ws.flatMap((w) => [0, 1].map(() => t.db.transaction((tx) => postWithdrawal(tx, w, later)))),
    ])
    expect(raced.filter(Boolean)).toHaveLength(9 + 6)
    const reversed = await Promise.all(ws.filter((_, i) => i % 2 === 0).flatMap((w) => [0, 1].map(() => t.db.transaction((tx) => postWithdrawalReversal(tx, w, later)))))
    expect(reversed.filter(Boolean)).toHaveLength(3)

    const ids = sellers.map((s) => s.id)
    const entries = await t.db.select().from(ledgerEntries).where(inArray(ledgerEntries.sellerId, ids))
    const balances = await t.db.select().from(sellerBalances).where(inArray(sellerBalances.sellerId, ids))
    const days = await t.db.select().from(sellerDailyIncome).where(inArray(sellerDailyIncome.sellerId, ids))
    for (const s of sellers) {
      const mine = entries.filter((e) => e.sellerId === s.id)
      const income = mine.filter((e) => e.kind === 'sale' || e.kind === 'refund')
      const balance = balances.find((b) => b.sellerId === s.id)!
      expect(balance.balanceFen).toBe(mine.reduce((a, e) => a + e.amountFen, 0))
      expect(balance.incomeFen).toBe(income.reduce((a, e) => a + e.amountFen, 0))
      const byDay = new Map<string, { incomeFen: number; orders: number }>()
      for (const e of income) {
        const d = byDay.get(shanghaiDay(e.createdAt)) ?? { incomeFen: 0, orders: 0 }
        d.incomeFen += e.amountFen
        d.orders += e.kind === 'sale' ? 1 : 0
        byDay.set(shanghaiDay(e.createdAt), d)
      }
      const stored = days.filter((d) => d.sellerId === s.id).map((d) => [d.day, { incomeFen: d.incomeFen, orders: d.orders }] as const)
      expect(new Map(stored)).toEqual(byDay)
      expect([...byDay.keys()].sort()).toEqual(['2026-12-31', '2027-01-01'])
      // And what the API answers is the same.
      now = later.getTime()
      const sum = await summary(s.token)
      expect(yuanToFen(sum.total)).toBe(balance.incomeFen)
      expect(sum.withdrawable).toBe(fenToYuan(balance.balanceFen - (await unsettledFen(t.db, s.id, later))))
    }
  })
})
