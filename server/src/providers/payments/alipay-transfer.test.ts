import crypto from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { AlipayGatewayFake } from '../../../test/fakes/alipay-gateway.ts'
import { issueAlipayCertificates } from '../../../test/fakes/alipay-certs.ts'
import { AlipayProvider } from './alipay.ts'
import type { PayoutProvider, TransferInput } from './types.ts'

let fake: AlipayGatewayFake
let payouts: PayoutProvider

beforeAll(async () => {
  fake = await AlipayGatewayFake.start()
  payouts = new AlipayProvider(fake.certConfig()).payouts!
  fake.payees.set('13800138000', '张三')
  fake.payees.set('seller@example.com', 'Li Si')
  fake.payees.set('2088102177846880', '王五')
})
afterAll(() => fake.stop())
beforeEach(() => {
  fake.transferMode = 'instant'
  fake.sellerBalanceFen = Number.MAX_SAFE_INTEGER
})

let seq = 0
function payout(over: Partial<TransferInput> = {}): TransferInput {
  seq++
  return {
    outBizNo: `W20261123120000${String(seq).padStart(10, '0')}${crypto.randomInt(1e6)}`,
    amount: 990,
    payee: { account: '13800138000', realName: '张三' },
    title: 'PayShare 提现 / withdrawal',
    ...over,
  }
}
const callsOf = (method: string) => fake.calls.filter((c) => c.method === method)

describe('payouts exist only in certificate mode', () => {
  test('a public-key mode provider offers none; the gateway refuses transfers without certificates anyway', async () => {
    expect(new AlipayProvider(fake.alipayConfig()).payouts).toBeUndefined()
  })

  test('an app certificate of another key stops the start, not the first payout', () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
    const foreign = issueAlipayCertificates(other, fake.alipayKeys)
    expect(() => new AlipayProvider(fake.certConfig({ certs: { ...fake.certificates(), appCert: foreign.appCert } }))).toThrow(/ALIPAY_APP_CERT/)
  })

  test('page pay works in certificate mode too: the gateway checks the certificate serial numbers it issued', async () => {
    const provider = new AlipayProvider(fake.certConfig())
    const { payUrl } = await provider.createPayment({
      orderNo: `PS${Date.now()}${crypto.randomInt(1e6)}`,
      amount: 1230,
      subject: 'cert mode',
      method: 'Alipay',
      notifyUrl: 'https://api.payshare.test/api/payments/alipay/notify',
      returnUrl: 'https://payshare.test/share/ABCDEFGH',
      expiresAt: new Date(Date.now() + 60_000),
    })
    const url = new URL(payUrl!)
    expect(url.searchParams.get('app_cert_sn')).toMatch(/^[0-9a-f]{32}$/)
    expect((await fake.open(payUrl!)).status).toBe(200)
    // The same URL with a serial of another certificate is refused.
    url.searchParams.set('app_cert_sn', '0'.repeat(32))
    expect((await fake.open(url.toString())).html).toContain('isv.app-cert-sn-invalid')
  })

  test('a root certificate chain Alipay did not issue is refused by the gateway (a final refusal: nothing moved)', async () => {
    const stranger = issueAlipayCertificates(fake.appKeys, fake.alipayKeys)
    const wrongRoot = new AlipayProvider(fake.certConfig({ certs: { ...fake.certificates(), alipayRootCert: stranger.alipayRootCert } })).payouts!
    const input = payout()
    expect(await wrongRoot.transfer(input)).toMatchObject({ state: 'FAILED', code: 'isv.alipay-root-cert-sn-invalid' })
    expect(fake.transfers.has(input.outBizNo)).toBe(false)
  })
})

describe('transfer', () => {
  test('pays the amount as exact yuan text to a login with its real name; SUCCESS carries Alipay order id', async () => {
    const input = payout({ amount: 1005 })
    const outcome = await payouts.transfer(input)
    const t = fake.transfers.get(input.outBizNo)!
    expect(outcome).toEqual({ state: 'SUCCESS', orderId: t.orderId })
    const biz = JSON.parse(callsOf('alipay.fund.trans.uni.transfer').at(-1)!.params.biz_content!)
    expect(biz).toMatchObject({
      out_biz_no: input.outBizNo,
      trans_amount: '10.05',
      product_code: 'TRANS_ACCOUNT_NO_PWD',
      biz_scene: 'DIRECT_TRANSFER',
      payee_info: { identity: '13800138000', identity_type: 'ALIPAY_LOGON_ID', name: '张三' },
    })
  })

  test('a 2088… account is paid as an Alipay user id', async () => {
    const outcome = await payouts.transfer(payout({ payee: { account: '2088102177846880', realName: '王五' } }))
    expect(outcome.state).toBe('SUCCESS')
    expect(JSON.parse(callsOf('alipay.fund.trans.uni.transfer').at(-1)!.params.biz_content!).payee_info.identity_type).toBe('ALIPAY_USER_ID')
  })

  test('the same out_biz_no again is the same transfer: same order id, paid once', async () => {
    const input = payout()
    fake.sellerBalanceFen = 5000
    const first = await payouts.transfer(input)
    const again = await Promise.all([payouts.transfer(input), payouts.transfer(input)])
    expect(again).toEqual([first, first])
    expect(fake.sellerBalanceFen).toBe(5000 - 990)
  })

  test('refusals are final: unknown payee, wrong real name, no balance, too small', async () => {
    expect(await payouts.transfer(payout({ payee: { account: 'nobody@example.com', realName: '某人' } }))).toMatchObject({ state: 'FAILED', code: 'PAYEE_NOT_EXIST' })
    expect(await payouts.transfer(payout({ payee: { account: 'seller@example.com', realName: 'Wrong Name' } }))).toMatchObject({ state: 'FAILED', code: 'PAYEE_USERINFO_ERROR' })
    fake.sellerBalanceFen = 100
    expect(await payouts.transfer(payout())).toMatchObject({ state: 'FAILED', code: 'PAYER_BALANCE_NOT_ENOUGH', message: expect.stringContaining('余额不足') })
    fake.sellerBalanceFen = Number.MAX_SAFE_INTEGER
    expect(await payouts.transfer(payout({ amount: 9 }))).toMatchObject({ state: 'FAILED', code: 'EXCEED_LIMIT_SM_MIN_AMOUNT' })
  })

  test('SYSTEM_ERROR, HTTP 500 and an answer failing the signature check are UNKNOWN, never FAILED', async () => {
    fake.failNext('alipay.fund.trans.uni.transfer', { code: '20000', sub_code: 'SYSTEM_ERROR', sub_msg: '系统繁忙' })
    expect(await payouts.transfer(payout())).toMatchObject({ state: 'UNKNOWN', code: 'SYSTEM_ERROR' })
    fake.failNext('alipay.fund.trans.uni.transfer', 'http500')
    expect((await payouts.transfer(payout())).state).toBe('UNKNOWN')
    fake.failNext('alipay.fund.trans.uni.transfer', 'badSignature')
    expect(await payouts.transfer(payout())).toMatchObject({ state: 'UNKNOWN', code: 'BAD_RESPONSE_SIGNATURE' })
  })

  test('a transfer made but whose answer was lost: the query finds it, a retry with the same out_biz_no returns it', async () => {
    const input = payout()
    fake.failNext('alipay.fund.trans.uni.transfer', 'http500AfterApplying')
    expect((await payouts.transfer(input)).state).toBe('UNKNOWN')
    const made = fake.transfers.get(input.outBizNo)!
    expect(await payouts.queryTransfer(input.outBizNo)).toEqual({ state: 'SUCCESS', orderId: made.orderId })
    expect(await payouts.transfer(input)).toEqual({ state: 'SUCCESS', orderId: made.orderId })
    expect([...fake.transfers.values()].filter((t) => t.outBizNo === input.outBizNo)).toHaveLength(1)
  })

  test('DEALING is UNKNOWN until Alipay finishes it', async () => {
    fake.transferMode = 'dealing'
    const input = payout()
    expect(await payouts.transfer(input)).toMatchObject({ state: 'UNKNOWN', code: 'DEALING' })
    expect(await payouts.queryTransfer(input.outBizNo)).toMatchObject({ state: 'UNKNOWN', code: 'DEALING' })
    fake.settleTransfers()
    expect(await payouts.queryTransfer(input.outBizNo)).toEqual({ state: 'SUCCESS', orderId: fake.transfers.get(input.outBizNo)!.orderId })
  })

  test('a query of an out_biz_no Alipay never saw is NOT_FOUND; a failed query is UNKNOWN', async () => {
    expect(await payouts.queryTransfer('W-never-sent')).toEqual({ state: 'NOT_FOUND' })
    fake.failNext('alipay.fund.trans.common.query', 'http500')
    expect((await payouts.queryTransfer('W-never-sent')).state).toBe('UNKNOWN')
  })
})
