import crypto from 'node:crypto'
import type { Config } from '../../config.ts'
import { SandboxProvider } from './sandbox.ts'
import type { PaymentMethod, PaymentProvider, PaymentProviderName, PayoutProvider } from './types.ts'

export type PaymentProviders = {
  /** The gateway that takes payments of a method: the real one when configured, else the sandbox when allowed. */
  forMethod(method: PaymentMethod): PaymentProvider | undefined
  /** The gateway of an order's `provider`; none for a free unlock's `subscription` (nothing to pay or refund). */
  byName(name: PaymentProviderName | 'subscription'): PaymentProvider | undefined
  /** Undefined when PAYMENTS_SANDBOX=false. */
  sandbox: SandboxProvider | undefined
  /** Payouts to sellers' Alipay accounts: Alipay in certificate mode only; no sandbox stands in (decision 050). */
  payout: PayoutProvider | undefined
}

export type PaymentOverrides = Partial<Record<PaymentProviderName, PaymentProvider>> & { payout?: PayoutProvider }

/**
 * Chooses gateways from config: Alipay (ALIPAY_*) and WeChat Pay (WECHAT_*) when configured, the
 * sandbox otherwise. Tests pass providers pointed at local fake gateways.
 */
export async function createPaymentProviders(config: Config, overrides: PaymentOverrides = {}): Promise<PaymentProviders> {
  const sandboxKey = crypto.createHmac('sha256', config.secrets.codePepper).update('sandbox-gateway').digest('hex')
  const sandbox = config.paymentsSandbox ? ((overrides.sandbox as SandboxProvider | undefined) ?? new SandboxProvider(sandboxKey, config.apiPublicUrl)) : undefined
  let alipay = overrides.alipay
  let payout = overrides.payout
  if (!alipay && config.alipay) {
    const { AlipayProvider } = await import('./alipay.ts')
    const provider = new AlipayProvider(config.alipay)
    alipay = provider
    payout ??= provider.payouts
  }
  let wechat = overrides.wechat
  if (!wechat && config.wechat) {
    const { WechatPayProvider } = await import('./wechat.ts')
    wechat = new WechatPayProvider(config.wechat)
  }
  const all: Record<PaymentProviderName, PaymentProvider | undefined> = { alipay, wechat, sandbox }
  return {
    forMethod: (method) => (method === 'Alipay' ? (alipay ?? sandbox) : (wechat ?? sandbox)),
    byName: (name) => (name === 'subscription' ? undefined : all[name]),
    sandbox,
    payout,
  }
}
