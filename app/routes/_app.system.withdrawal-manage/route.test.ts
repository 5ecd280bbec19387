import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { usersApi } from '#contract/users.ts'
import { args, post, sessionCookie, statusOf, userFixture, withdrawalFixture } from '../../../tests/support/console.ts'
import { toastCookie } from '#app/.server/session.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' }) })
})

const submit = async (url: string, fields: Record<string, string> | [string, string][]) => statusOf(await action(args(post(url, fields, { cookie: await sessionCookie('tok') }))))

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
    expect(res.data).toEqual({ intent: 'payout', error: 'withdrawals.payoutFailed', confirmLogout: false })
  })

  it('batch mark paid: the ticked ids and one transfer number go to the API; back to the queue at the next row, with how many were done', async () => {
    stub.on(withdrawalsApi.adminBatchProcess, {
      data: { results: [{ id: 7, ok: true, changed: true, msg: 'withdrawals.processed' }, { id: 9, ok: true, changed: true, msg: 'withdrawals.processed' }], done: 2, failed: 0 },
    })
    const res = await submit('/system/withdrawal-manage?status=Pending&process=3', [
      ['intent', 'batch-process'],
      ['rows', '5,7,8,9,10'],
      ['ids', '7'],
      ['ids', '9'],
      ['transaction_order', 'BATCH-1'],
      ['reason', ''],
    ])
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/system/withdrawal-manage?status=Pending#item-10')
    expect(stub.callsTo(withdrawalsApi.adminBatchProcess)[0]?.body).toEqual({ ids: [7, 9], transaction_order: 'BATCH-1' })
  })

  it('batch reject answered 500: the page itself comes back, the ticks and the reason kept, the dialog opened there (issue 23)', async () => {
    stub.on(withdrawalsApi.adminBatchReject, { code: 500, msg: 'errors.internal' })
    const fields: [string, string][] = [['intent', 'batch-reject'], ['rows', '7,8'], ['ids', '7'], ['ids', '8'], ['reason', 'name mismatch']]
    const request = post('/system/withdrawal-manage?status=Pending', fields, { cookie: await sessionCookie('tok'), headers: { accept: 'text/html' } })
    const res = statusOf(await action(args(request)))
    expect(res.status).toBe(500)
    expect(res.headers.get('location')).toBeNull()
    expect(res.data).toEqual({ intent: 'batch', error: 'errors.internal', confirmLogout: true, sent: { ids: [7, 8], values: { reason: 'name mismatch' } } })
  })

  it('batch reject: nothing ticked or no reason is refused by name without asking the API; refused items are named in the toast', async () => {
    // What was typed comes back with the refusal (without JavaScript the page is rendered afresh).
    expect((await submit('/system/withdrawal-manage', [['intent', 'batch-reject'], ['reason', 'frozen']])).data).toEqual({
      intent: 'batch',
      error: 'validation.batchIds',
      confirmLogout: false,
      sent: { ids: [], values: { reason: 'frozen' } },
    })
    expect((await submit('/system/withdrawal-manage', [['intent', 'batch-reject'], ['ids', '7'], ['reason', ' ']])).data).toMatchObject({ intent: 'batch', error: 'withdrawals.reasonRequired', sent: { ids: [7] } })
    expect(stub.count('/api/withdrawals/admin/batch-reject')).toBe(0)
    stub.on(withdrawalsApi.adminBatchReject, {
      data: { results: [{ id: 7, ok: false, changed: false, msg: 'withdrawals.notPending' }, { id: 8, ok: true, changed: true, msg: 'withdrawals.rejected' }], done: 1, failed: 1 },
    })
    const res = await submit('/system/withdrawal-manage', [['intent', 'batch-reject'], ['rows', '7,8'], ['ids', '7'], ['ids', '8'], ['reason', 'frozen']])
    expect(res.status).toBe(302)
    // The refused one is still in the queue: the page comes back to it.
    expect(res.headers.get('location')).toBe('/system/withdrawal-manage#item-7')
    expect(await toastCookie.parse(res.headers.get('set-cookie'))).toEqual({
      toast: { type: 'error', key: 'common.queue.partly', values: { done: '1', failed: '1', reasons: expect.stringMatching(/^#7 .+/) } },
    })
  })
})
