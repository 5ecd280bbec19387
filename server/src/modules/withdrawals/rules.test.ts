import { describe, expect, it } from 'vitest'
import { withdrawalAmountSchema } from '#contract/withdrawals.ts'
import { adminMove, checkWithdrawal, payoutNo, serviceFeeFen, type Seller, type WithdrawalSettings } from './rules.ts'

// DESIGN §3 defaults: minimum ¥10, fee 1% with a minimum of ¥0.10.
const settings: WithdrawalSettings = { minFen: 1000, feeBp: 100, feeMinFen: 10 }
const seller: Seller = { isBanned: 0, alipayRealName: '张三', alipayAccount: '13800138000' }
const check = (amountFen: number, withdrawableFen = 100_000, over: Partial<Seller> = {}, s = settings) =>
  checkWithdrawal({ amountFen, withdrawableFen, seller: { ...seller, ...over }, settings: s })
const refusal = (r: ReturnType<typeof checkWithdrawal>) => (r.ok ? null : r.refusal)

describe('the service fee', () => {
  it('is the rate of the amount rounded half up to the fen, never below the minimum fee', () => {
    expect(serviceFeeFen(1000, settings)).toBe(10) // ¥10.00 → 1% = ¥0.10
    expect(serviceFeeFen(1005, settings)).toBe(10) // 10.05 fen
    expect(serviceFeeFen(1249, settings)).toBe(12) // 12.49 fen
    expect(serviceFeeFen(1250, settings)).toBe(13) // 12.50 fen: half up
    expect(serviceFeeFen(123_456, settings)).toBe(1235) // 1234.56 fen
    expect(serviceFeeFen(500, settings)).toBe(10) // 5 fen → the minimum
    expect(serviceFeeFen(1000, { ...settings, feeBp: 0, feeMinFen: 0 })).toBe(0)
  })

  it('is an integer close to the exact rate for every amount; amount = fee + actual', () => {
    for (let amount = 1; amount < 200_000; amount += 7) {
      const fee = serviceFeeFen(amount, settings)
      expect(Number.isInteger(fee)).toBe(true)
      const exact = (amount * settings.feeBp) / 10000
      expect(fee === settings.feeMinFen ? exact <= settings.feeMinFen + 0.5 : Math.abs(fee - exact) <= 0.5).toBe(true)
      const r = check(amount, 1e9)
      if (r.ok) expect(r.feeFen + r.actualFen).toBe(amount)
    }
  })
})

describe('who may withdraw what (each refusal its own message)', () => {
  it('accepts an amount between the minimum and the withdrawable income, with fee and actual amount', () => {
    expect(check(1000, 1000)).toEqual({ ok: true, feeFen: 10, actualFen: 990 })
    expect(check(5000, 8000)).toEqual({ ok: true, feeFen: 50, actualFen: 4950 })
  })

  it('refuses below the minimum (422, the amount field)', () => {
    expect(refusal(check(999))).toEqual({ status: 422, msg: 'withdrawals.belowMinimum' })
  })

  it('refuses more than the withdrawable income (409)', () => {
    expect(refusal(check(1001, 1000))).toEqual({ status: 409, msg: 'withdrawals.exceedsWithdrawable' })
  })

  it('refuses a fee that leaves nothing to pay out', () => {
    const tiny = { minFen: 1, feeBp: 100, feeMinFen: 10 }
    expect(refusal(check(10, 1000, {}, tiny))).toEqual({ status: 422, msg: 'withdrawals.feeExceedsAmount' })
    expect(check(11, 1000, {}, tiny)).toEqual({ ok: true, feeFen: 10, actualFen: 1 })
  })

  it('refuses without Alipay real name and account (blank counts as missing)', () => {
    expect(refusal(check(1000, 5000, { alipayAccount: null }))).toEqual({ status: 409, msg: 'withdrawals.alipayMissing' })
    expect(refusal(check(1000, 5000, { alipayRealName: '  ' }))).toEqual({ status: 409, msg: 'withdrawals.alipayMissing' })
  })

  it('a negative balance blocks every amount, with its own message', () => {
    expect(refusal(check(1000, -1))).toEqual({ status: 409, msg: 'withdrawals.negativeBalance' })
    expect(refusal(check(1, -500))).toEqual({ status: 409, msg: 'withdrawals.negativeBalance' })
    expect(check(1000, 1000).ok).toBe(true)
  })

  it('refuses a banned seller first', () => {
    expect(refusal(check(1000, 5000, { isBanned: 1, alipayAccount: null }))).toEqual({ status: 409, msg: 'withdrawals.sellerBanned' })
  })

  it('refuses a non-positive or non-integer fen amount (never reaches the ledger)', () => {
    for (const bad of [0, -1000, 10.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(refusal(check(bad))?.msg).toBe('withdrawals.amountPositive')
  })
})

describe('the amount as typed (contract schema)', () => {
  const parse = (v: unknown) => withdrawalAmountSchema.safeParse(v)
  const msg = (v: unknown) => {
    const r = parse(v)
    return r.success ? null : r.error.issues[0]!.message
  }
  it('takes yuan with at most two decimals, as a number or digits', () => {
    expect(parse('12.30').data).toBe(12.3)
    expect(parse(' 10 ').data).toBe(10)
    expect(parse(0.3).data).toBe(0.3)
  })
  it('refuses everything else with a message of its own', () => {
    expect(msg('12.345')).toBe('withdrawals.amountDecimals')
    expect(msg('0')).toBe('withdrawals.amountPositive')
    expect(msg(0)).toBe('withdrawals.amountPositive')
    expect(msg(-5)).toBe('withdrawals.amountPositive')
    for (const v of ['abc', '', '1e3', '-5', '1,000', '¥10', null, true, [], {}]) expect(msg(v), String(v)).toBe('withdrawals.amountFormat')
    expect(msg(Number.POSITIVE_INFINITY)).toBe('withdrawals.amountFormat')
    expect(msg('100000000000000000000')).toBe('withdrawals.amountTooLarge')
  })
})

describe('admin moves (decision 049)', () => {
  const pending = { status: 'Pending', transactionOrder: null, payoutMethod: null } as const
  const completed = { status: 'Completed', transactionOrder: 'T123', payoutMethod: 'manual' } as const
  const paidOut = { status: 'Completed', transactionOrder: '2026112311007', payoutMethod: 'alipay' } as const
  const failed = { status: 'Failed', transactionOrder: null, payoutMethod: null } as const
  it('every action applies to a Pending withdrawal', () => {
    for (const a of [{ kind: 'process', transactionOrder: 'T1' }, { kind: 'reject' }, { kind: 'payout' }] as const) expect(adminMove(pending, a)).toBe('apply')
  })
  it('the same action again is a repeat; anything else a conflict', () => {
    expect(adminMove(completed, { kind: 'process', transactionOrder: 'T123' })).toBe('repeat')
    expect(adminMove(completed, { kind: 'process', transactionOrder: 'T999' })).toBe('conflict')
    expect(adminMove(completed, { kind: 'reject' })).toBe('conflict')
    expect(adminMove(completed, { kind: 'payout' })).toBe('conflict')
    expect(adminMove(paidOut, { kind: 'payout' })).toBe('repeat')
    expect(adminMove(paidOut, { kind: 'process', transactionOrder: '2026112311007' })).toBe('conflict')
    expect(adminMove(failed, { kind: 'reject' })).toBe('repeat')
    expect(adminMove(failed, { kind: 'process', transactionOrder: 'T1' })).toBe('conflict')
    expect(adminMove(failed, { kind: 'payout' })).toBe('conflict')
  })
})

describe('the payout number (out_biz_no)', () => {
  it('is the same for a withdrawal every time, different for another, ≤ 64 characters of [0-9A-Za-z]', () => {
    const w = { id: 42, createdAt: new Date('2026-11-23T04:05:06Z') }
    expect(payoutNo(w)).toBe('W202611231205060000000042')
    expect(payoutNo({ ...w })).toBe(payoutNo(w))
    expect(payoutNo({ ...w, id: 43 })).not.toBe(payoutNo(w))
    expect(payoutNo({ ...w, createdAt: new Date('2026-11-23T04:05:07Z') })).not.toBe(payoutNo(w))
    expect(payoutNo({ id: 2 ** 31 - 1, createdAt: w.createdAt })).toMatch(/^[0-9A-Za-z]{1,64}$/)
  })
})
