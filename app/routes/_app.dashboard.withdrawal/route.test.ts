import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { type WithdrawalPreview, withdrawalsApi } from '#contract/withdrawals.ts'
import { args, post, sessionCookie, statusOf, userFixture, withdrawalFixture } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const PREVIEW: WithdrawalPreview = {
  withdrawalAmount: 25,
  withdrawalServiceFee: 0.25,
  actualWithdrawalAmount: 24.75,
  withdrawable: 20,
  minimum: 10,
  feeRateBp: 100,
  feeMinimum: 0.1,
  refusal: 'withdrawals.exceedsWithdrawable',
}

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ alipayRealName: '张三', alipayAccount: '13800138000' }) })
})

const submit = async (fields: Record<string, string>) => {
  const res = statusOf(await action(args(post('/dashboard/withdrawal', fields, { cookie: await sessionCookie('tok') }))))
  return { ...res, body: res.data as { result: { error?: Record<string, string[] | null> }; preview?: WithdrawalPreview } }
}

describe('the withdrawal form without JavaScript', () => {
  it('Preview shows the figures with the form, the refusal at the amount field, and requests nothing', async () => {
    stub.on(withdrawalsApi.preview, ({ query }) => ({ data: { ...PREVIEW, withdrawalAmount: Number(query.get('amount')) } }))
    const res = await submit({ amount: '25', intent: 'preview' })
    expect(res.status).toBe(200)
    expect(res.body.preview).toMatchObject({ withdrawalAmount: 25, withdrawalServiceFee: 0.25, actualWithdrawalAmount: 24.75 })
    expect(res.body.result.error).toEqual({ amount: ['withdrawals.exceedsWithdrawable'] })
    expect(stub.count(withdrawalsApi.create)).toBe(0)
  })

  it('a badly typed amount is refused at its field before the API is asked', async () => {
    const res = await submit({ amount: '12.345', intent: 'create' })
    expect(res.status).toBe(400)
    expect(res.body.result.error).toEqual({ amount: ['withdrawals.amountDecimals'] })
    expect(stub.count(withdrawalsApi.create)).toBe(0)
  })

  it('an amount refusal of the API lands at the field; another refusal above the form', async () => {
    stub.on(withdrawalsApi.create, { code: 409, msg: 'withdrawals.exceedsWithdrawable', data: { withdrawable: 20 } })
    expect((await submit({ amount: '25', intent: 'create' })).body.result.error).toEqual({ amount: ['withdrawals.exceedsWithdrawable'] })
    stub.on(withdrawalsApi.create, { code: 409, msg: 'withdrawals.negativeBalance', data: { withdrawable: -3 } })
    expect((await submit({ amount: '10', intent: 'create' })).body.result.error).toEqual({ '': ['withdrawals.negativeBalance'] })
    stub.on(withdrawalsApi.create, { code: 422, msg: 'validation.failed', data: { fieldErrors: { amount: ['withdrawals.belowMinimum'] } } })
    expect((await submit({ amount: '5', intent: 'create' })).body.result.error).toEqual({ amount: ['withdrawals.belowMinimum'] })
  })

  it('a request that is taken goes back to the page with its message', async () => {
    stub.on(withdrawalsApi.create, ({ body }) => ({ code: 201, data: withdrawalFixture({ withdrawalAmount: Number(body.amount) }) }))
    const res = await submit({ amount: '10.5', intent: 'create' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/dashboard/withdrawal')
    expect(stub.callsTo(withdrawalsApi.create)[0]?.body).toEqual({ amount: 10.5 })
  })
})
