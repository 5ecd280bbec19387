import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { usersApi } from '#contract/users.ts'
import { args, post, sessionCookie, statusOf, userFixture, withdrawalFixture } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' }) })
})

const submit = async (url: string, fields: Record<string, string>) => statusOf(await action(args(post(url, fields, { cookie: await sessionCookie('tok') }))))

describe('the withdrawal queue actions (no JavaScript)', () => {
  it('process: a missing transfer order number is refused at its field, in the dialog, without asking the API', async () => {
    const res = await submit('/system/withdrawal-manage?process=7', { intent: 'process', id: '7', transaction_order: '' })
    expect(res.status).toBe(400)
    expect(res.data).toMatchObject({ intent: 'process', result: { error: { transaction_order: ['withdrawals.transactionOrderRequired'] } } })
    expect(stub.count(withdrawalsApi.adminProcess)).toBe(0)
  })

  it('process: done → back to the list without the dialog, keeping the filters', async () => {
    stub.on(withdrawalsApi.adminProcess, { data: withdrawalFixture({ id: 7, status: 'Completed', transaction_order: 'T2026', payout_method: 'manual', processing_time: '2026-11-24T01:00:00.000Z' }) })
    const res = await submit('/system/withdrawal-manage?status=Pending&process=7', { intent: 'process', id: '7', transaction_order: 'T2026' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/system/withdrawal-manage?status=Pending')
    expect(stub.callsTo(withdrawalsApi.adminProcess)[0]?.body).toEqual({ id: 7, transaction_order: 'T2026' })
  })

  it('reject: a refusal of the API (no longer pending) shows in the dialog', async () => {
    stub.on(withdrawalsApi.adminReject, { code: 409, msg: 'withdrawals.notPending', data: { status: 'Completed' } })
    const res = await submit('/system/withdrawal-manage?reject=7', { intent: 'reject', id: '7', reason: 'wrong name' })
    expect(res.data).toMatchObject({ intent: 'reject', result: { error: { '': ['withdrawals.notPending'] } } })
  })

  it("payout: Alipay's refusal (a 502 about Alipay) is stated above the list — no 'Confirm logout'", async () => {
    stub.on(withdrawalsApi.adminPayout, { code: 502, msg: 'withdrawals.payoutFailed', data: null })
    const res = await submit('/system/withdrawal-manage', { intent: 'payout', id: '7' })
    expect(res.status).toBe(400)
    expect(res.data).toEqual({ intent: 'payout', error: 'withdrawals.payoutFailed' })
  })
})
