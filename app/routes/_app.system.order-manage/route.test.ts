import { afterAll, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { ordersApi } from '#contract/orders.ts'
import { toastCookie } from '#app/.server/session.ts'
import { args, post, sessionCookie, statusOf, userFixture } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const ORDER_NO = 'PS20261123100000123456789012'
stub.on(usersApi.userInfo, { data: userFixture({ role: 'admin', user_name: 'admin' }) })

const refund = async (query = '') =>
  action(args(post(`/system/order-manage${query}`, { intent: 'refund', orderNo: ORDER_NO }, { cookie: await sessionCookie('tok') })))
const toastOf = async (headers: Headers) => ((await toastCookie.parse(headers.get('set-cookie'))) as { toast?: { key: string } } | null)?.toast

describe('admin refund action (decision 057)', () => {
  it('a refund the gateway confirmed says so; one it is still processing says that instead', async () => {
    stub.on(ordersApi.adminRefund, { data: { orderNo: ORDER_NO, payment_status: 'Refund', refund_state: 'done' } })
    const done = statusOf(await refund('?unicode=AbCd2345'))
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/system/order-manage?unicode=AbCd2345')
    expect(await toastOf(done.headers)).toMatchObject({ key: 'orders.refunded' })

    stub.on(ordersApi.adminRefund, { data: { orderNo: ORDER_NO, payment_status: 'Refund', refund_state: 'pending' } })
    const pending = statusOf(await refund())
    expect(await toastOf(pending.headers)).toMatchObject({ key: 'orders.refundPending' })
    expect(stub.callsTo(ordersApi.adminRefund).map((c) => c.body)).toEqual([{ orderNo: ORDER_NO }, { orderNo: ORDER_NO }])
  })

  it('a refund the gateway still refuses (a failed one asked about again) is stated on the page', async () => {
    stub.on(ordersApi.adminRefund, { code: 502, msg: 'orders.refundFailed' })
    const refused = statusOf(await refund())
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.data)).toContain('orders.refundFailed')
  })
})
