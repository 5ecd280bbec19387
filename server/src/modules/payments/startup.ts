import { PAYMENT_METHODS, type PaymentMethod } from '#contract/orders.ts'
import type { Config } from '../../config.ts'
import type { PaymentProviders } from '../../providers/payments/index.ts'

type StartupLine = { level: 'info' | 'warn' | 'error'; msg: string }

const GATEWAY_NAMES = { alipay: 'Alipay', wechat: 'WeChat Pay', sandbox: 'the SANDBOX gateway' } as const
const METHOD_NAMES: Record<PaymentMethod, string> = { Alipay: 'Alipay', WeChat: 'WeChat Pay' }

/**
 * What the API says at start about payments: which gateway serves each method, and — loudly — when the
 * sandbox takes payments (visitors can "pay" without money). In production that needs
 * PAYMENTS_SANDBOX=true, and is an error-level line so that it stands out in any log.
 */
export function paymentsStartupReport(payments: PaymentProviders, config: Pick<Config, 'env'>): StartupLine[] {
  const lines: StartupLine[] = PAYMENT_METHODS.map((m) => {
    const gateway = payments.forMethod(m)
    return { level: 'info', msg: `PAYMENTS: ${METHOD_NAMES[m]} → ${gateway ? GATEWAY_NAMES[gateway.name] : 'not offered (no gateway configured, sandbox off)'}` }
  })
  lines.push({
    level: 'info',
    msg: payments.payout
      ? 'PAYOUTS: withdrawals can be paid out through Alipay (certificate mode, fund.trans.uni.transfer)'
      : 'PAYOUTS: admins pay withdrawals by hand and enter the transfer order number (set ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT and ALIPAY_ROOT_CERT for payouts through Alipay)',
  })
  const sandboxed = PAYMENT_METHODS.filter((m) => payments.forMethod(m)?.name === 'sandbox').map((m) => METHOD_NAMES[m])
  if (sandboxed.length && config.env === 'production') {
    lines.push({
      level: 'error',
      msg: `PAYMENTS: !!! THE SANDBOX GATEWAY TAKES ${sandboxed.join(' AND ').toUpperCase()} PAYMENTS IN PRODUCTION (NODE_ENV=production, PAYMENTS_SANDBOX=true): visitors can "pay" without money and read paid content. Fine for a local \`npm start\`; a deployment configures ALIPAY_*/WECHAT_* and leaves PAYMENTS_SANDBOX unset.`,
    })
  } else if (sandboxed.length) {
    lines.push({ level: 'warn', msg: `PAYMENTS: ${sandboxed.join(' and ')} go through the SANDBOX gateway — visitors can "pay" without money. Configure ALIPAY_*/WECHAT_* for real payments.` })
  } else if (PAYMENT_METHODS.some((m) => !payments.forMethod(m))) {
    lines.push({ level: 'warn', msg: 'PAYMENTS: a method without a configured gateway is not offered to buyers.' })
  }
  return lines
}
