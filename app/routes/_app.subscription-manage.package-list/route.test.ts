import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { packagesApi } from '#contract/packages.ts'
import { args, post, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture() })
})

const ORDER_NO = 'PS20261123000000123456789012'
const buy = async (fields: Record<string, string>) =>
  statusOf(await settle(async () => action(args(post('/subscription-manage/package-list', fields, { cookie: await sessionCookie('tok') })))))

describe('buying a package', () => {
  it("Alipay (and the sandbox): to the gateway's pay page", async () => {
    stub.on(packagesApi.buy, { code: 201, data: { orderNo: ORDER_NO, payUrl: 'http://gateway.test/pay?x=1' } })
    expect((await buy({ id: '3', paymentMethod: 'Alipay', intent: 'buy-3' })).headers.get('location')).toBe('http://gateway.test/pay?x=1')
    expect(stub.callsTo(packagesApi.buy)[0]?.body).toEqual({ id: 3, paymentMethod: 'Alipay' })
  })

  it('WeChat (a QR code): to the pay page of the order', async () => {
    stub.on(packagesApi.buy, { code: 201, data: { orderNo: ORDER_NO, qrCode: 'weixin://wxpay/bizpayurl?pr=abc' } })
    expect((await buy({ id: '3', paymentMethod: 'WeChat' })).headers.get('location')).toBe(`/pay/${ORDER_NO}`)
  })

  it("a refusal is stated on the package's card; a bad form never reaches the API", async () => {
    stub.on(packagesApi.buy, { code: 409, msg: 'subscriptions.packageNotOnSale' })
    expect(await buy({ id: '3', paymentMethod: 'Alipay' })).toMatchObject({ status: 400, data: { id: '3', error: 'subscriptions.packageNotOnSale' } })
    expect(await buy({ id: '3', paymentMethod: 'Bitcoin' })).toMatchObject({ status: 400, data: { id: '3', error: 'validation.paymentMethod' } })
    expect(stub.count(packagesApi.buy)).toBe(1)
  })
})
