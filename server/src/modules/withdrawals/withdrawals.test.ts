import { and, eq, sum } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Withdrawal, WithdrawalPreview } from '#contract/withdrawals.ts'
import { ledgerEntries, sellerBalances, shares, users, withdrawals } from '../../db/schema/index.ts'
import { AlipayProvider } from '../../providers/payments/alipay.ts'
import { AlipayGatewayFake } from '../../../test/fakes/alipay-gateway.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp } from '../../../test/helpers.ts'
import { newUnicode } from '../shares/rules.ts'
import { createWithdrawal } from './service.ts'

const HOUR = 3600 * 1000
const DAY = 24 * HOUR

/** A movable clock for the app under test (settlement delay, processing times). */
function movableClock(start = '2026-11-20T04:00:00Z') {
  let now = new Date(start)
  return { clock: () => now, advance: (ms: number) => (now = new Date(now.getTime() + ms)) }
}

type Seller = { id: number; name: string; token: string }

/** The app's own data helpers, bound to one test app. */
function helpers(t: TestApp) {
  const inject = t.app.inject.bind(t.app)
  return {
    async seller({ alipay = true }: { alipay?: boolean } = {}): Promise<Seller> {
      const u = await createUser(t.db)
      if (alipay) await t.db.update(users).set({ alipayRealName: '张三', alipayAccount: '13800138000' }).where(eq(users.id, u.id))
      return { id: u.id, name: u.userName, token: await t.login(u.userName, u.password) }
    },
    /** A visitor buys one of the seller's shares through the sandbox gateway; the seller earns price − 5 %. */
    async sale(seller: Seller, priceFen: number): Promise<string> {
      const [share] = await t.db
        .insert(shares)
        .values({ userId: seller.id, title: 'Withdrawal test', unicode: newUnicode(), type: 'text', contentEnc: t.app.cipher.encrypt('x'), priceFen, status: 'approved' })
        .returning()
      const created = await inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), payload: { unicode: share!.unicode, paymentMethod: 'Alipay' } })
      expect(created.statusCode, created.body).toBe(201)
      const orderNo = created.json().data.orderNo as string
      const n = t.app.payments.sandbox!.settle(orderNo, priceFen, true)
      const paid = await inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
      expect(paid.body).toBe('success')
      return orderNo
    },
    preview: async (s: Seller, amount?: string) =>
      (await inject({ url: `/api/withdrawals/preview${amount === undefined ? '' : `?amount=${amount}`}`, headers: bearer(s.token) })).json().data as WithdrawalPreview,
    create: (s: Seller, amount: unknown) => inject({ method: 'POST', url: '/api/withdrawals/create', headers: bearer(s.token), payload: { amount } }),
    mine: async (s: Seller, query = '') => (await inject({ url: `/api/withdrawals/list${query}`, headers: bearer(s.token) })).json().data as { list: Withdrawal[]; total: number },
    admin: async (token: string, path: 'process' | 'reject' | 'payout', body: Record<string, unknown>) =>
      inject({ method: 'POST', url: `/api/withdrawals/admin/${path}`, headers: bearer(token), payload: body }),
    /** The seller's ledger balance as the sum of its rows, and the cached balance beside it. */
    async balance(s: Seller) {
      const [row] = await t.db.select({ s: sum(ledgerEntries.amountFen) }).from(ledgerEntries).where(eq(ledgerEntries.sellerId, s.id))
      const [cached] = await t.db.select({ b: sellerBalances.balanceFen }).from(sellerBalances).where(eq(sellerBalances.sellerId, s.id))
      expect(Number(cached?.b ?? 0), 'the cached balance is the ledger sum').toBe(Number(row?.s ?? 0))
      return Number(row?.s ?? 0)
    },
    entries: (withdrawalId: number) => t.db.select().from(ledgerEntries).where(eq(ledgerEntries.withdrawalId, withdrawalId)),
    row: async (id: number) => (await t.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!,
  }
}

/** A withdrawal's audit trail (issue 9): [action, from, to, by a person?], oldest first. */
async function trailOf(app: TestApp['app'], adminToken: string, id: number) {
  const res = await app.inject({ url: `/api/audit/admin/list?subject=withdrawal:${id}`, headers: bearer(adminToken) })
  return (res.json().data.list as { action: string; from: string | null; to: string | null; actor: unknown }[]).map((e) => [e.action, e.from, e.to, e.actor !== null])
}

describe('withdrawals (manual payout)', () => {
  let t: TestApp
  let h: ReturnType<typeof helpers>
  let admin: string
  const time = movableClock()

  beforeAll(async () => {
    t = await buildTestApp({ clock: time.clock, config: { seedDemo: false } })
    h = helpers(t)
    admin = await t.login('admin', ADMIN_PASSWORD)
  })
  afterAll(() => t.close())

  /** A seller with `incomeFen` withdrawable (one sale, settled). */
  async function sellerWith(priceFen: number) {
    const s = await h.seller()
    await h.sale(s, priceFen)
    time.advance(DAY + 1000)
    return s
  }

  it('a sale is unsettled for the delay, then withdrawable; the preview shows fee and actual amount', async () => {
    const s = await h.seller()
    await h.sale(s, 2000) // income 19.00
    expect(await h.preview(s)).toEqual({
      withdrawalAmount: null,
      withdrawalServiceFee: null,
      actualWithdrawalAmount: null,
      withdrawable: 0,
      minimum: 10,
      feeRateBp: 100,
      feeMinimum: 0.1,
      refusal: null,
    })
    const before = await dbFingerprint(t.db)
    const early = await h.create(s, 10)
    expect(early.statusCode).toBe(409)
    expect(early.json()).toMatchObject({ msg: 'withdrawals.exceedsWithdrawable', data: { withdrawable: 0 } })
    expect(await dbFingerprint(t.db)).toEqual(before)
    time.advance(DAY - 1000)
    expect((await h.preview(s)).withdrawable).toBe(0)
    time.advance(2000)
    expect(await h.preview(s, '12.5')).toMatchObject({ withdrawable: 19, withdrawalAmount: 12.5, withdrawalServiceFee: 0.13, actualWithdrawalAmount: 12.37, refusal: null })
    expect((await h.preview(s, '19.01')).refusal).toBe('withdrawals.exceedsWithdrawable')
    expect((await h.preview(s, '9.99')).refusal).toBe('withdrawals.belowMinimum')
  })

  it('a request debits the ledger at once and is Pending, with the Alipay details as they were', async () => {
    const s = await sellerWith(2000)
    const res = await h.create(s, '12.34')
    expect(res.statusCode, res.body).toBe(201)
    const w = res.json().data as Withdrawal
    expect(res.json().msg).toBe('withdrawals.created')
    expect(w).toMatchObject({
      username: s.name,
      status: 'Pending',
      withdrawalAmount: 12.34,
      withdrawalServiceFee: 0.12,
      actualWithdrawalAmount: 12.22,
      alipayAccount: '13800138000',
      alipayRealName: '张三',
      processing_time: null,
      transaction_order: null,
      failure_reason: null,
      application_time: time.clock().toISOString(),
    })
    expect(await h.balance(s)).toBe(1900 - 1234)
    expect((await h.preview(s)).withdrawable).toBe(6.66)
    expect((await h.entries(w.id)).map((e) => [e.kind, e.amountFen])).toEqual([['withdrawal', -1234]])
    // Changing the Alipay account later does not change where this withdrawal goes.
    await t.db.update(users).set({ alipayAccount: 'other@example.com' }).where(eq(users.id, s.id))
    const mine = await h.mine(s)
    expect(mine.list.map((x) => [x.id, x.alipayAccount])).toEqual([[w.id, '13800138000']])
  })

  it('refuses each broken rule with its own message, and changes nothing', async () => {
    const s = await sellerWith(2000)
    const noAlipay = await h.seller({ alipay: false })
    await h.sale(noAlipay, 2000)
    time.advance(DAY + 1000)
    const before = await dbFingerprint(t.db)
    const expectRefusal = async (res: Awaited<ReturnType<typeof h.create>>, status: number, msg: string) => {
      expect(res.statusCode, res.body).toBe(status)
      if (status === 422) expect(res.json().data.fieldErrors.amount).toEqual([msg])
      else expect(res.json().msg).toBe(msg)
    }
    await expectRefusal(await h.create(s, '9.99'), 422, 'withdrawals.belowMinimum')
    await expectRefusal(await h.create(s, '19.01'), 409, 'withdrawals.exceedsWithdrawable')
    await expectRefusal(await h.create(s, '12.345'), 422, 'withdrawals.amountDecimals')
    await expectRefusal(await h.create(s, 0), 422, 'withdrawals.amountPositive')
    await expectRefusal(await h.create(s, -10), 422, 'withdrawals.amountPositive')
    await expectRefusal(await h.create(s, 'ten'), 422, 'withdrawals.amountFormat')
    await expectRefusal(await h.create(s, '1e3'), 422, 'withdrawals.amountFormat')
    await expectRefusal(await h.create(s, 1e20), 422, 'withdrawals.amountTooLarge')
    await expectRefusal(await h.create(noAlipay, 10), 409, 'withdrawals.alipayMissing')
    for (const c of badInputs({ method: 'POST', url: '/api/withdrawals/create', headers: bearer(s.token), body: { fields: { amount: { type: 'int', required: true } }, valid: { amount: 10 } } })) {
      expectRejected(await t.app.inject(c.request), c)
    }
    // (A fraction is an amount; the preview answers it with its refusal.)
    for (const c of badInputs({ method: 'GET', url: '/api/withdrawals/preview', headers: bearer(s.token), query: { fields: { amount: { type: 'int' } }, valid: { amount: '10' } } })) {
      if (c.name !== '?amount a fraction') expectRejected(await t.app.inject(c.request), c)
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('a negative balance (a refunded settled sale) blocks withdrawals until it is positive again, and says so', async () => {
    const s = await h.seller()
    const refunded = await h.sale(s, 2000)
    time.advance(DAY + 1000)
    expect((await h.create(s, 19)).statusCode).toBe(201)
    const refund = await t.app.inject({ method: 'POST', url: '/api/orders/admin/refund', headers: bearer(admin), payload: { orderNo: refunded } })
    expect(refund.statusCode, refund.body).toBe(200)
    expect((await h.preview(s)).withdrawable).toBe(-19)
    expect((await h.preview(s, '10')).refusal).toBe('withdrawals.negativeBalance')
    const before = await dbFingerprint(t.db)
    const res = await h.create(s, 10)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ msg: 'withdrawals.negativeBalance', data: { withdrawable: -19 } })
    expect(await dbFingerprint(t.db)).toEqual(before)
    // New settled income brings it back above zero.
    await h.sale(s, 4000) // +38.00
    time.advance(DAY + 1000)
    expect((await h.preview(s)).withdrawable).toBe(19)
    expect((await h.create(s, 19)).statusCode).toBe(201)
  })

  it('a banned seller is refused even when the request got past authentication', async () => {
    const s = await sellerWith(2000)
    await t.db.update(users).set({ isBanned: 1 }).where(eq(users.id, s.id))
    const before = await dbFingerprint(t.db)
    await expect(createWithdrawal(t.app, s.id, 10)).rejects.toMatchObject({ statusCode: 409, msg: 'withdrawals.sellerBanned' })
    expect((await h.create(s, 10)).statusCode).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it(`50 concurrent requests of one seller never take more than the withdrawable amount (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const s = await sellerWith(10000) // 95.00 withdrawable
    const amounts = Array.from({ length: 50 }, (_, i) => 10 + (i % 7) + (i % 3) / 100) // 10.00 … 16.02
    const answers = await Promise.all(amounts.map((a) => h.create(s, a)))
    const accepted = answers.map((r, i) => [r.statusCode, amounts[i]!] as const).filter(([status]) => status === 201)
    const refused = answers.filter((r) => r.statusCode !== 201)
    for (const r of refused) expect(r.json().msg, r.body).toBe('withdrawals.exceedsWithdrawable')
    const takenFen = accepted.reduce((n, [, a]) => n + Math.round(a * 100), 0)
    expect(takenFen).toBeLessThanOrEqual(9500)
    expect(accepted.length).toBeGreaterThanOrEqual(5)
    const left = 9500 - takenFen
    expect(await h.balance(s)).toBe(left)
    expect((await h.preview(s)).withdrawable * 100).toBeCloseTo(left, 6)
    // One after the other under the lock: each refused one was more than what was left by then.
    for (const r of refused) expect(Math.round(r.json().data.withdrawable * 100)).toBeLessThan(Math.round(amounts[answers.indexOf(r)]! * 100))
    const rows = await t.db.select().from(withdrawals).where(eq(withdrawals.userId, s.id))
    expect(rows).toHaveLength(accepted.length)
    for (const w of rows) {
      expect(Number.isInteger(w.amountFen) && Number.isInteger(w.feeFen) && Number.isInteger(w.actualFen)).toBe(true)
      expect(w.feeFen + w.actualFen).toBe(w.amountFen)
    }
  })

  it('integer fen throughout: amounts that are not exact in binary are exact in the ledger', async () => {
    const s = await sellerWith(10000) // 95.00
    for (const a of [10.1, 10.2, 10.3, 10.7, 0.1 + 10.2]) expect((await h.create(s, a)).statusCode).toBe(201)
    expect(await h.balance(s)).toBe(9500 - 1010 - 1020 - 1030 - 1070 - 1030)
    const fees = (await t.db.select().from(withdrawals).where(eq(withdrawals.userId, s.id))).map((w) => w.feeFen)
    expect(fees.sort()).toEqual([10, 10, 10, 10, 11])
  })

  describe('the admin queue', () => {
    it('processing: Completed with the transfer order and time; the same again changes nothing; anything else is refused', async () => {
      const s = await sellerWith(4000)
      const w = (await h.create(s, 20)).json().data as Withdrawal
      time.advance(HOUR)
      const done = await h.admin(admin, 'process', { id: w.id, transaction_order: ' 20261121200040011100880012345678 ' })
      expect(done.statusCode, done.body).toBe(200)
      expect(done.json()).toMatchObject({
        msg: 'withdrawals.processed',
        data: { status: 'Completed', transaction_order: '20261121200040011100880012345678', payout_method: 'manual', processing_time: time.clock().toISOString() },
      })
      const balance = await h.balance(s)
      const after = await dbFingerprint(t.db)
      const again = await h.admin(admin, 'process', { id: w.id, transaction_order: '20261121200040011100880012345678' })
      expect(again.statusCode).toBe(200)
      expect(again.json()).toMatchObject({ msg: 'withdrawals.alreadyProcessed', data: done.json().data })
      for (const [path, body] of [
        ['process', { id: w.id, transaction_order: 'OTHER123' }],
        ['reject', { id: w.id, reason: 'too late' }],
      ] as const) {
        const res = await h.admin(admin, path, body)
        expect(res.statusCode).toBe(409)
        expect(res.json()).toMatchObject({ msg: 'withdrawals.notPending', data: { status: 'Completed' } })
      }
      expect(await dbFingerprint(t.db)).toEqual(after)
      expect(await h.balance(s)).toBe(balance)
      // The seller sees it completed, with the transfer order.
      expect((await h.mine(s)).list[0]).toMatchObject({ status: 'Completed', transaction_order: '20261121200040011100880012345678', failure_reason: null })
      // Each change once in its audit trail: the seller's request, the admin's processing (not the repeat).
      expect(await trailOf(t.app, admin, w.id)).toEqual([
        ['request', null, 'Pending', true],
        ['process', 'Pending', 'Completed', true],
      ])
    })

    it('rejecting: Failed with the reason, the money back once; again changes nothing; processing it is refused', async () => {
      const s = await sellerWith(4000) // 38.00
      const w = (await h.create(s, 30)).json().data as Withdrawal
      expect(await h.balance(s)).toBe(800)
      const res = await h.admin(admin, 'reject', { id: w.id, reason: ' 支付宝账号与实名不符 / name does not match ' })
      expect(res.json()).toMatchObject({ msg: 'withdrawals.rejected', data: { status: 'Failed', failure_reason: '支付宝账号与实名不符 / name does not match' } })
      expect(await h.balance(s)).toBe(3800)
      expect((await h.preview(s)).withdrawable).toBe(38)
      const after = await dbFingerprint(t.db)
      const again = await h.admin(admin, 'reject', { id: w.id, reason: 'another reason' })
      expect(again.json()).toMatchObject({ code: 200, msg: 'withdrawals.alreadyRejected', data: { failure_reason: '支付宝账号与实名不符 / name does not match' } })
      const process = await h.admin(admin, 'process', { id: w.id, transaction_order: 'T1' })
      expect(process.json()).toMatchObject({ code: 409, msg: 'withdrawals.notPending', data: { status: 'Failed' } })
      expect(await dbFingerprint(t.db)).toEqual(after)
      expect((await h.entries(w.id)).map((e) => [e.kind, e.amountFen]).sort()).toEqual([
        ['withdrawal', -3000],
        ['withdrawal_reversal', 3000],
      ])
      expect((await h.mine(s)).list[0]).toMatchObject({ status: 'Failed', failure_reason: '支付宝账号与实名不符 / name does not match' })
      expect(await trailOf(t.app, admin, w.id)).toEqual([
        ['request', null, 'Pending', true],
        ['reject', 'Pending', 'Failed', true],
      ])
    })

    it('two admins at once: double process, double reject, process against reject — one wins, the money moves once', async () => {
      const s = await sellerWith(20000) // 190.00
      const ids = []
      for (let i = 0; i < 3; i++) ids.push(((await h.create(s, 20)).json().data as Withdrawal).id)
      const [a, b, c] = ids as [number, number, number]
      const processes = await Promise.all([1, 2, 3].map(() => h.admin(admin, 'process', { id: a, transaction_order: 'SAME1' })))
      expect(processes.map((r) => r.json().msg).sort()).toEqual(['withdrawals.alreadyProcessed', 'withdrawals.alreadyProcessed', 'withdrawals.processed'])
      const rejects = await Promise.all([1, 2, 3].map((i) => h.admin(admin, 'reject', { id: b, reason: `reason ${i}` })))
      expect(rejects.map((r) => r.json().msg).sort()).toEqual(['withdrawals.alreadyRejected', 'withdrawals.alreadyRejected', 'withdrawals.rejected'])
      const raced = await Promise.all([h.admin(admin, 'process', { id: c, transaction_order: 'RACE1' }), h.admin(admin, 'reject', { id: c, reason: 'race' })])
      const winners = raced.filter((r) => r.statusCode === 200)
      expect(winners).toHaveLength(1)
      expect(raced.find((r) => r.statusCode !== 200)!.json()).toMatchObject({ code: 409, msg: 'withdrawals.notPending' })
      const finalC = await h.row(c)
      expect(finalC.status).toBe(winners[0]!.json().data.status)
      // The ledger: one reversal for b, one for c only if it was rejected.
      expect((await h.entries(b)).filter((e) => e.kind === 'withdrawal_reversal')).toHaveLength(1)
      expect((await h.entries(c)).filter((e) => e.kind === 'withdrawal_reversal')).toHaveLength(finalC.status === 'Failed' ? 1 : 0)
      expect(await h.balance(s)).toBe(19000 - 2000 * 3 + 2000 + (finalC.status === 'Failed' ? 2000 : 0))
    })

    it('refuses sellers (403), unknown ids (404) and bad input (422) without changing anything', async () => {
      const s = await sellerWith(4000)
      const other = await sellerWith(4000)
      const w = (await h.create(s, 20)).json().data as Withdrawal
      const before = await dbFingerprint(t.db)
      for (const [path, body] of [
        ['process', { id: w.id, transaction_order: 'T1' }],
        ['reject', { id: w.id, reason: 'x' }],
        ['payout', { id: w.id }],
      ] as const) {
        expect((await h.admin(s.token, path, body)).statusCode).toBe(403)
        expect((await h.admin(other.token, path, body)).statusCode).toBe(403)
      }
      expect((await t.app.inject({ url: '/api/withdrawals/admin/list', headers: bearer(other.token) })).statusCode).toBe(403)
      expect((await t.app.inject({ url: '/api/withdrawals/admin/list' })).statusCode).toBe(401)
      expect((await t.app.inject({ method: 'POST', url: '/api/withdrawals/create', payload: { amount: 10 } })).statusCode).toBe(401)
      // Another seller's list never shows this one's withdrawal.
      expect((await h.mine(other)).list.map((x) => x.id)).not.toContain(w.id)
      expect((await h.admin(admin, 'process', { id: 2_000_000_000, transaction_order: 'T1' })).json()).toMatchObject({ code: 404, msg: 'withdrawals.notFound' })
      const bad = async (path: 'process' | 'reject', body: Record<string, unknown>, field: string, msg: string) => {
        const res = await h.admin(admin, path, body)
        expect(res.statusCode, res.body).toBe(422)
        expect(res.json().data.fieldErrors[field]).toEqual([msg])
      }
      await bad('process', { id: w.id, transaction_order: '  ' }, 'transaction_order', 'withdrawals.transactionOrderRequired')
      await bad('process', { id: w.id, transaction_order: 'T 1' }, 'transaction_order', 'withdrawals.transactionOrderFormat')
      await bad('process', { id: w.id, transaction_order: 'x'.repeat(65) }, 'transaction_order', 'withdrawals.transactionOrderFormat')
      await bad('reject', { id: w.id, reason: '' }, 'reason', 'withdrawals.reasonRequired')
      await bad('reject', { id: w.id, reason: 'x'.repeat(201) }, 'reason', 'withdrawals.reasonTooLong')
      const cases = [
        ...badInputs({ method: 'POST', url: '/api/withdrawals/admin/process', headers: bearer(admin), body: { fields: { id: { type: 'int', required: true }, transaction_order: { type: 'string', required: true } }, valid: { id: w.id, transaction_order: 'T1' } } }),
        ...badInputs({ method: 'POST', url: '/api/withdrawals/admin/reject', headers: bearer(admin), body: { fields: { id: { type: 'int', required: true }, reason: { type: 'string', required: true } }, valid: { id: w.id, reason: 'x' } } }),
        ...badInputs({
          method: 'GET',
          url: '/api/withdrawals/admin/list',
          headers: bearer(admin),
          query: { fields: { pageNum: { type: 'int' }, pageSize: { type: 'int' }, status: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } }, valid: {} },
        }),
      ]
      // Bad input for a field that is otherwise valid (SQL and HTML in a reason are a reason) is excluded.
      for (const c of cases.filter((c) => !(c.field === 'reason' && /SQL|HTML|a number/.test(c.name)))) expectRejected(await t.app.inject(c.request), c)
      expect(await dbFingerprint(t.db)).toEqual(before)
      expect((await h.row(w.id)).status).toBe('Pending')
    })

    it('lists with filters: status, seller, application day (Asia/Shanghai); newest first', async () => {
      const s = await sellerWith(20000)
      time.advance(DAY)
      const day1 = new Date(time.clock().getTime() + 8 * HOUR).toISOString().slice(0, 10)
      const first = (await h.create(s, 10)).json().data as Withdrawal
      time.advance(DAY)
      const day2 = new Date(time.clock().getTime() + 8 * HOUR).toISOString().slice(0, 10)
      const second = (await h.create(s, 11)).json().data as Withdrawal
      await h.admin(admin, 'reject', { id: first.id, reason: 'x' })
      const list = async (query: string) => {
        const res = await t.app.inject({ url: `/api/withdrawals/admin/list?${query}`, headers: bearer(admin) })
        expect(res.statusCode, res.body).toBe(200)
        return res.json().data as { list: Withdrawal[]; total: number; alipayPayout: boolean }
      }
      const all = await list(`keyword=${s.name}`)
      expect(all).toMatchObject({ total: 2, alipayPayout: false })
      expect(all.list.map((w) => w.id)).toEqual([second.id, first.id])
      expect((await list(`keyword=${s.name}&status=Failed`)).list.map((w) => w.id)).toEqual([first.id])
      expect((await list(`keyword=${s.name}&from=${day2}`)).list.map((w) => w.id)).toEqual([second.id])
      expect((await list(`keyword=${s.name}&to=${day1}`)).list.map((w) => w.id)).toEqual([first.id])
      expect((await list(`keyword=${s.name.toUpperCase()}&from=${day1}&to=${day2}&pageSize=1`)).list.map((w) => w.id)).toEqual([second.id])
      expect((await list(`keyword=${s.name}_nobody`)).total).toBe(0)
      // Without Alipay payouts configured the payout call is refused.
      expect((await h.admin(admin, 'payout', { id: second.id })).json()).toMatchObject({ code: 409, msg: 'withdrawals.payoutUnavailable' })
      expect((await h.mine(s, '?status=Failed')).list.map((w) => w.id)).toEqual([first.id])
    })
  })
  it('batch (decision 125): several marked paid with one transfer number or rejected with one reason, each as alone; others answer per item; a replay changes nothing', async () => {
    const a = await sellerWith(3000)
    const b = await sellerWith(3000)
    const ids: number[] = []
    for (const s of [a, b, a]) {
      const res = await h.create(s, 10 + ids.length)
      expect(res.statusCode, res.body).toBe(201)
      ids.push(res.json().data.id)
    }
    const [w1, w2, w3] = ids as [number, number, number]
    const batch = (path: 'batch-process' | 'batch-reject', payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/withdrawals/admin/${path}`, headers: bearer(admin), payload: payload as object })
    const paid = await batch('batch-process', { ids: [w1, w2, 987654], transaction_order: 'BATCH-2026-11-27' })
    expect(paid.statusCode, paid.body).toBe(200)
    expect(paid.json().data).toEqual({
      results: [
        { id: w1, ok: true, changed: true, msg: 'withdrawals.processed' },
        { id: w2, ok: true, changed: true, msg: 'withdrawals.processed' },
        { id: 987654, ok: false, changed: false, msg: 'withdrawals.notFound' },
      ],
      done: 2,
      failed: 1,
    })
    expect([(await h.row(w1)).transactionOrder, (await h.row(w2)).status]).toEqual(['BATCH-2026-11-27', 'Completed'])
    expect(await trailOf(t.app, admin, w2)).toEqual([
      ['request', null, 'Pending', true],
      ['process', 'Pending', 'Completed', true],
    ])
    // A replay: unchanged; a rejection of a paid one: refused by itself, the pending one rejected and credited back.
    expect((await batch('batch-process', { ids: [w1, w2], transaction_order: 'BATCH-2026-11-27' })).json().data).toMatchObject({ done: 2, results: [{ changed: false }, { changed: false }] })
    const balance = await h.balance(a)
    const rejected = await batch('batch-reject', { ids: [w1, w3], reason: 'Alipay account frozen' })
    expect(rejected.json().data.results).toEqual([
      { id: w1, ok: false, changed: false, msg: 'withdrawals.notPending' },
      { id: w3, ok: true, changed: true, msg: 'withdrawals.rejected' },
    ])
    expect(await h.balance(a)).toBe(balance + 1200)
    expect((await h.row(w1)).status).toBe('Completed')
    for (const [path, payload] of [
      ['batch-process', { ids: [w3], transaction_order: '' }],
      ['batch-process', { ids: [], transaction_order: 'X1' }],
      ['batch-reject', { ids: [w3] }],
      ['batch-reject', { ids: 'all', reason: 'x' }],
    ] as const) {
      expect((await batch(path, payload)).statusCode, JSON.stringify(payload)).toBe(422)
    }
  })
})

describe('withdrawals paid out through Alipay (certificate mode, local fake gateway)', () => {
  let t: TestApp
  let h: ReturnType<typeof helpers>
  let admin: string
  let fake: AlipayGatewayFake
  const time = movableClock()

  beforeAll(async () => {
    fake = await AlipayGatewayFake.start()
    fake.payees.set('13800138000', '张三')
    t = await buildTestApp({ clock: time.clock, config: { seedDemo: false }, payments: { payout: new AlipayProvider(fake.certConfig()).payouts! } })
    h = helpers(t)
    admin = await t.login('admin', ADMIN_PASSWORD)
  })
  afterAll(async () => {
    await t.close()
    await fake.stop()
  })

  async function pending(amount = 20) {
    const s = await h.seller()
    await h.sale(s, 4000) // 38.00
    time.advance(DAY + 1000)
    const w = (await h.create(s, amount)).json().data as Withdrawal
    return { s, w }
  }
  const transfersTo = (outBizNoEnd: string) => [...fake.transfers.values()].filter((x) => x.outBizNo.endsWith(outBizNoEnd))

  it('pays the actual amount to the Alipay details of the request: Completed with Alipay order id; again changes nothing', async () => {
    const { s, w } = await pending(20)
    expect((await t.app.inject({ url: '/api/withdrawals/admin/list', headers: bearer(admin) })).json().data.alipayPayout).toBe(true)
    const res = await h.admin(admin, 'payout', { id: w.id })
    expect(res.statusCode, res.body).toBe(200)
    const [transfer] = transfersTo(String(w.id).padStart(10, '0'))
    expect(transfer).toMatchObject({ amountFen: 1980, identity: '13800138000', identityType: 'ALIPAY_LOGON_ID', name: '张三' })
    expect(res.json()).toMatchObject({ msg: 'withdrawals.paidOut', data: { status: 'Completed', payout_method: 'alipay', transaction_order: transfer!.orderId } })
    const after = await dbFingerprint(t.db)
    const again = await Promise.all([h.admin(admin, 'payout', { id: w.id }), h.admin(admin, 'payout', { id: w.id })])
    for (const r of again) expect(r.json()).toMatchObject({ code: 200, msg: 'withdrawals.alreadyPaidOut' })
    expect(transfersTo(String(w.id).padStart(10, '0'))).toHaveLength(1)
    expect(await dbFingerprint(t.db)).toEqual(after)
    expect((await h.admin(admin, 'reject', { id: w.id, reason: 'x' })).json()).toMatchObject({ code: 409, data: { status: 'Completed' } })
    expect((await h.mine(s)).list[0]).toMatchObject({ status: 'Completed', transaction_order: transfer!.orderId })
  })

  it('a refused payout leaves it Pending with the reason for the admin (not the seller); the admin may then reject it', async () => {
    const { s, w } = await pending(20)
    fake.payees.delete('13800138000')
    const res = await h.admin(admin, 'payout', { id: w.id })
    fake.payees.set('13800138000', '张三')
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ msg: 'withdrawals.payoutFailed', data: { withdrawal: { status: 'Pending', payout_method: null, payout_error: expect.stringContaining('PAYEE_NOT_EXIST') } } })
    const queue = (await t.app.inject({ url: `/api/withdrawals/admin/list?keyword=${s.name}`, headers: bearer(admin) })).json().data.list[0] as Withdrawal
    expect(queue.payout_error).toContain('PAYEE_NOT_EXIST')
    expect((await h.mine(s)).list[0]).toMatchObject({ status: 'Pending', payout_error: null, failure_reason: null })
    const rejected = await h.admin(admin, 'reject', { id: w.id, reason: 'Alipay account does not exist' })
    expect(rejected.json()).toMatchObject({ code: 200, data: { status: 'Failed', failure_reason: 'Alipay account does not exist', payout_error: null } })
    expect(await h.balance(s)).toBe(3800)
    // Alipay's refusal is recorded by the system (no actor), between the admin's two steps.
    expect(await trailOf(t.app, admin, w.id)).toEqual([
      ['request', null, 'Pending', true],
      ['payout_start', 'Pending', 'paying_out', true],
      ['payout_failed', 'paying_out', 'Pending', false],
      ['reject', 'Pending', 'Failed', true],
    ])
  })

  it('an unknown outcome keeps it Pending and "being paid out": no hand action until Alipay is asked; a paid transfer completes it', async () => {
    const { s, w } = await pending(20)
    fake.failNext('alipay.fund.trans.uni.transfer', 'http500AfterApplying')
    const res = await h.admin(admin, 'payout', { id: w.id })
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ msg: 'withdrawals.payoutUnknown', data: { withdrawal: { status: 'Pending', payout_method: 'alipay' } } })
    const before = await dbFingerprint(t.db)
    // Within the settle window nothing is done by hand, not even asked.
    for (const [path, body] of [
      ['reject', { id: w.id, reason: 'x' }],
      ['process', { id: w.id, transaction_order: 'T1' }],
    ] as const) {
      expect((await h.admin(admin, path, body)).json()).toMatchObject({ code: 409, msg: 'withdrawals.payoutInProgress' })
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    time.advance(61_000)
    // Alipay says it paid: the rejection is refused and the withdrawal is Completed with Alipay's order.
    const reject = await h.admin(admin, 'reject', { id: w.id, reason: 'x' })
    expect(reject.json()).toMatchObject({ code: 409, msg: 'withdrawals.notPending', data: { status: 'Completed' } })
    const [transfer] = transfersTo(String(w.id).padStart(10, '0'))
    expect(await h.row(w.id)).toMatchObject({ status: 'Completed', transactionOrder: transfer!.orderId, payoutMethod: 'alipay' })
    expect(await h.balance(s)).toBe(1800)
    expect(await t.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.withdrawalId, w.id), eq(ledgerEntries.kind, 'withdrawal_reversal')))).toEqual([])
  })

  it('a retry after an unknown outcome uses the same out_biz_no: paid once', async () => {
    const { w } = await pending(15)
    fake.failNext('alipay.fund.trans.uni.transfer', 'http500AfterApplying')
    expect((await h.admin(admin, 'payout', { id: w.id })).statusCode).toBe(502)
    const retry = await h.admin(admin, 'payout', { id: w.id })
    expect(retry.json()).toMatchObject({ code: 200, data: { status: 'Completed' } })
    expect(transfersTo(String(w.id).padStart(10, '0'))).toHaveLength(1)
  })

  it('a transfer that never reached Alipay: after the window the admin processes it by hand', async () => {
    const { w } = await pending(20)
    fake.failNext('alipay.fund.trans.uni.transfer', 'http500')
    expect((await h.admin(admin, 'payout', { id: w.id })).json().msg).toBe('withdrawals.payoutUnknown')
    time.advance(61_000)
    const done = await h.admin(admin, 'process', { id: w.id, transaction_order: 'BANK0001' })
    expect(done.json()).toMatchObject({ code: 200, data: { status: 'Completed', payout_method: 'manual', transaction_order: 'BANK0001' } })
    expect(transfersTo(String(w.id).padStart(10, '0'))).toHaveLength(0)
  })

  it('still processing at Alipay (DEALING): stays Pending until Alipay finishes; asking again completes it', async () => {
    const { w } = await pending(20)
    fake.transferMode = 'dealing'
    expect((await h.admin(admin, 'payout', { id: w.id })).json()).toMatchObject({ code: 502, msg: 'withdrawals.payoutUnknown', data: { withdrawal: { payout_error: expect.stringContaining('DEALING') } } })
    time.advance(61_000)
    expect((await h.admin(admin, 'reject', { id: w.id, reason: 'x' })).json().msg).toBe('withdrawals.payoutInProgress')
    fake.settleTransfers()
    fake.transferMode = 'instant'
    expect((await h.admin(admin, 'payout', { id: w.id })).json()).toMatchObject({ code: 200, data: { status: 'Completed' } })
  })

  it('a rejected or processed withdrawal is never paid out', async () => {
    const { w } = await pending(20)
    await h.admin(admin, 'reject', { id: w.id, reason: 'no' })
    expect((await h.admin(admin, 'payout', { id: w.id })).json()).toMatchObject({ code: 409, msg: 'withdrawals.notPending', data: { status: 'Failed' } })
    expect(transfersTo(String(w.id).padStart(10, '0'))).toHaveLength(0)
  })
})
