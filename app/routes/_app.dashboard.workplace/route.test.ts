// The workplace loader: the seller's own figures, the 30-day series and the five latest orders, asked
// with the session's token; a failed call is the page's error, not a page of zeros.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { ordersApi } from '#contract/orders.ts'
import { incomeApi } from '#contract/income.ts'
import { args, get, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const SUMMARY = { withdrawable: -9.5, month: 120.4, today: 9.5, unsettled: 19, total: 980.1 }
const DAYS = Array.from({ length: 30 }, (_, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, income: i, orders: i % 3 }))

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ phone: '13800138000' }) })
  stub.on(incomeApi.summary, { data: SUMMARY })
  stub.on(incomeApi.daily, { data: { list: DAYS } })
  stub.on(ordersApi.sellerList, { data: { list: [], total: 0, pageNum: 1, pageSize: 5 } })
})

describe('workplace loader', () => {
  it("asks for the caller's figures, 30 days and the 5 latest orders with the session's token", async () => {
    const data = await loader(args(get('/dashboard/workplace', await sessionCookie('tok'))))
    expect(data).toMatchObject({ summary: SUMMARY, days: DAYS, recent: [], userName: 'ada' })
    expect(data.steps.map((s) => [s.key, s.done])).toEqual([
      ['phone', true],
      ['terms', false],
      ['alipay', false],
    ])
    const income = stub.calls.filter((c) => c.path.startsWith('/api/income/') || c.path === '/api/orders/seller/list')
    expect(income.map((c) => c.headers.authorization)).toEqual(['Bearer tok', 'Bearer tok', 'Bearer tok'])
    expect(stub.callsTo(incomeApi.daily)[0]?.query.get('days')).toBe('30')
    expect(stub.callsTo(ordersApi.sellerList)[0]?.query.get('pageSize')).toBe('5')
  })

  it('a failed figures call is the error page (with its status), never zeros', async () => {
    stub.on(incomeApi.summary, { code: 503, msg: 'errors.unavailable', data: null })
    const res = statusOf(await settle(async () => loader(args(get('/dashboard/workplace', await sessionCookie('tok'))))))
    expect(res.status).toBe(503)
  })
})
