import { describe, expect, it } from 'vitest'
import { testConfig } from '../../../test/helpers.ts'
import { createPaymentProviders } from '../../providers/payments/index.ts'
import type { PaymentProvider, PayoutProvider } from '../../providers/payments/types.ts'
import { paymentsStartupReport } from './startup.ts'

const realAlipay = { name: 'alipay' } as PaymentProvider

describe('what the API says at start about payments', () => {
  it('names the gateway of each method', async () => {
    const payments = await createPaymentProviders(testConfig({ paymentsSandbox: true }), { alipay: realAlipay })
    const lines = paymentsStartupReport(payments, { env: 'development' })
    expect(lines.filter((l) => l.level === 'info' && l.msg.startsWith('PAYMENTS:')).map((l) => l.msg)).toEqual(['PAYMENTS: Alipay → Alipay', 'PAYMENTS: WeChat Pay → the SANDBOX gateway'])
    expect(lines.filter((l) => l.level !== 'info')).toEqual([{ level: 'warn', msg: expect.stringContaining('WeChat Pay go through the SANDBOX gateway') }])
  })

  it('is loud (an error line) when the sandbox takes payments in production', async () => {
    const payments = await createPaymentProviders(testConfig({ paymentsSandbox: true }))
    const loud = paymentsStartupReport(payments, { env: 'production' }).filter((l) => l.level === 'error')
    expect(loud).toHaveLength(1)
    expect(loud[0]!.msg).toContain('THE SANDBOX GATEWAY TAKES ALIPAY AND WECHAT PAY PAYMENTS IN PRODUCTION')
  })

  it('says whether withdrawals can be paid out through Alipay', async () => {
    const manual = paymentsStartupReport(await createPaymentProviders(testConfig(), { alipay: realAlipay }), { env: 'production' })
    expect(manual.find((l) => l.msg.startsWith('PAYOUTS:'))?.msg).toMatch(/by hand.*ALIPAY_APP_CERT/)
    const payout = { name: 'alipay' } as PayoutProvider
    const api = paymentsStartupReport(await createPaymentProviders(testConfig(), { alipay: realAlipay, payout }), { env: 'production' })
    expect(api.find((l) => l.msg.startsWith('PAYOUTS:'))?.msg).toMatch(/through Alipay \(certificate mode/)
  })

  it('says which methods are not offered when neither a gateway nor the sandbox serves them', async () => {
    const payments = await createPaymentProviders(testConfig({ paymentsSandbox: false }), { alipay: realAlipay })
    const lines = paymentsStartupReport(payments, { env: 'production' })
    expect(lines.map((l) => l.msg)).toContain('PAYMENTS: WeChat Pay → not offered (no gateway configured, sandbox off)')
    expect(lines.some((l) => l.level === 'error' || /SANDBOX/.test(l.msg))).toBe(false)
  })
})
