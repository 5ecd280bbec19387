import crypto from 'node:crypto'
import { AlipayRequestError, AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk'
import { type Fen, yuanToFen } from '#contract/money.ts'
import type { AlipayConfig } from '../../config.ts'
import { AlipayTransfers, fenToYuanText } from './alipay-transfer.ts'
import { alipayTime } from './china-time.ts'
import { rsaPrivateKey, rsaPublicKey } from './keys.ts'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  NotificationRejected,
  type PaymentNotification,
  type PaymentProvider,
  type PaymentQuery,
  ProviderError,
  type RefundInput,
  type RefundQueryState,
  type RefundResult,
} from './types.ts'

/** Outcome unknown: the caller retries with the same out_trade_no / out_request_no (INTEGRATIONS §1.3). */
const RETRYABLE_SUB_CODES = new Set(['ACQ.SYSTEM_ERROR', 'aop.unknow-error', 'isp.unknow-error', 'isp.unknown-error'])

/** page.pay's subject may not contain `/ = &` (INTEGRATIONS §1.3); 256 characters at most. */
function alipaySubject(subject: string): string {
  const clean = Array.from(subject.replace(/[/=&]/g, ' ').replace(/\s+/g, ' ').trim()).slice(0, 256).join('')
  return clean || 'PayShare'
}

/**
 * Alipay computer-website payment (alipay.trade.page.pay) through the official `alipay-sdk`, in
 * public-key mode — or in certificate mode when the certificates are configured, which also offers
 * payouts to sellers' Alipay accounts (`payouts`, decision 050). research/INTEGRATIONS.md §1;
 * docs/decisions/006-payment-gateways.md.
 *
 * Every call passes its own `timestamp` in Beijing time: the SDK would otherwise stamp requests
 * with the process's local time, which Alipay reads as Beijing time (8 hours off on a UTC host).
 */
export class AlipayProvider implements PaymentProvider {
  readonly name = 'alipay' as const
  private readonly sdk: AlipaySdk
  /** Transfers to Alipay accounts: only in certificate mode, which Alipay requires for them. */
  readonly payouts: AlipayTransfers | undefined

  constructor(private readonly config: AlipayConfig) {
    // The SDK strips only the PEM header its keyType names (a PKCS#8 PEM under the default PKCS1
    // fails to decode); hand it normalised DER base64 so PKCS#1, PKCS#8 and bare console keys all work.
    const appKey = rsaPrivateKey(config.privateKey, 'ALIPAY_PRIVATE_KEY')
    const privateKey = appKey.export({ type: 'pkcs8', format: 'der' }).toString('base64')
    const alipayPublicKey = rsaPublicKey(config.alipayPublicKey, 'ALIPAY_PUBLIC_KEY').export({ type: 'spki', format: 'der' }).toString('base64')
    const gateway = new URL(config.gateway)
    if (config.certs) {
      // A certificate of another key would fail every call at the gateway: refuse it at start-up.
      const certified = new crypto.X509Certificate(config.certs.appCert).publicKey.export({ type: 'spki', format: 'der' })
      if (!certified.equals(crypto.createPublicKey(appKey).export({ type: 'spki', format: 'der' }))) {
        throw new Error('ALIPAY_APP_CERT does not certify the key of ALIPAY_PRIVATE_KEY')
      }
    }
    this.sdk = new AlipaySdk({
      appId: config.appId,
      privateKey,
      keyType: 'PKCS8',
      alipayPublicKey,
      signType: 'RSA2',
      gateway: gateway.toString(),
      endpoint: gateway.origin,
      camelcase: false,
      timeout: 10_000,
      // Certificate mode: the SDK sends app_cert_sn / alipay_root_cert_sn and takes Alipay's key from its certificate.
      ...(config.certs
        ? { appCertContent: config.certs.appCert, alipayPublicCertContent: config.certs.alipayPublicCert, alipayRootCertContent: config.certs.alipayRootCert }
        : {}),
    })
    this.payouts = config.certs ? new AlipayTransfers((method, bizContent) => this.execute(method, bizContent)) : undefined
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    // GET, not POST: the POST variant is an HTML form with an inline auto-submit script that the
    // console's nonce CSP would block (INTEGRATIONS §1.1, §5.1). pageExecute signs locally.
    const payUrl = this.sdk.pageExecute('alipay.trade.page.pay', 'GET', {
      bizContent: {
        out_trade_no: input.orderNo,
        total_amount: fenToYuanText(input.amount),
        subject: alipaySubject(input.subject),
        product_code: 'FAST_INSTANT_TRADE_PAY',
        time_expire: alipayTime(input.expiresAt),
      },
      returnUrl: input.returnUrl,
      notifyUrl: input.notifyUrl,
      timestamp: alipayTime(),
    })
    return { payUrl }
  }

  async parseNotification(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<PaymentNotification> {
    const fields: Record<string, string> = {}
    for (const [key, value] of new URLSearchParams(req.rawBody)) {
      if (key in fields) throw new NotificationRejected(`alipay: duplicate field ${key}`)
      fields[key] = value
    }
    if (!fields.sign) throw new NotificationRejected('alipay: unsigned notification')
    // Only RSA2 is accepted: sign_type is part of the untrusted body and must not pick SHA-1.
    if (fields.sign_type && fields.sign_type !== 'RSA2') throw new NotificationRejected(`alipay: sign_type ${fields.sign_type}`)
    // V2 verifies the raw (form-decoded once) values; V1 decodes them again (INTEGRATIONS §1.1).
    let verified = false
    try {
      verified = this.sdk.checkNotifySignV2(fields)
    } catch {
      verified = false
    }
    if (!verified) throw new NotificationRejected('alipay: bad signature')
    if (fields.app_id !== this.config.appId) throw new NotificationRejected(`alipay: foreign app_id ${fields.app_id}`)
    if (this.config.sellerId && fields.seller_id !== this.config.sellerId) {
      throw new NotificationRejected(`alipay: foreign seller_id ${fields.seller_id}`)
    }
    const { notify_id: eventKey, out_trade_no: orderNo, trade_no: tradeNo, trade_status: status, total_amount: total } = fields
    if (!eventKey || !orderNo || !tradeNo || !status || !total) throw new NotificationRejected('alipay: missing fields')
    let amount: Fen
    try {
      amount = yuanToFen(total)
    } catch {
      throw new NotificationRejected(`alipay: bad total_amount ${total}`)
    }
    const state = status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED' ? 'PAID' : status === 'TRADE_CLOSED' ? 'CLOSED' : 'OTHER'
    return { eventKey, orderNo, tradeNo, state, amount }
  }

  ack(ok: boolean) {
    // Exactly `success`, nothing around it; anything else makes Alipay retry (INTEGRATIONS §1.2).
    return { status: 200, contentType: 'text/plain', body: ok ? 'success' : 'fail' }
  }

  async queryPayment(orderNo: string): Promise<PaymentQuery> {
    const r = await this.call('alipay.trade.query', { out_trade_no: orderNo }, ['ACQ.TRADE_NOT_EXIST'])
    if (r.code !== '10000') return { state: 'NOT_FOUND' }
    let amount: Fen | undefined
    try {
      amount = r.total_amount ? yuanToFen(String(r.total_amount)) : undefined
    } catch {
      throw new ProviderError(`alipay: bad total_amount ${String(r.total_amount)}`, 'BAD_RESPONSE', false)
    }
    const tradeNo = r.trade_no ? String(r.trade_no) : undefined
    switch (r.trade_status) {
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED':
        return { state: 'PAID', tradeNo, amount }
      case 'WAIT_BUYER_PAY':
        return { state: 'PENDING', tradeNo, amount }
      case 'TRADE_CLOSED':
        return { state: 'CLOSED', tradeNo, amount }
      default:
        throw new ProviderError(`alipay: unknown trade_status ${String(r.trade_status)}`, 'UNKNOWN_STATE', true)
    }
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    // (out_trade_no, out_request_no) is the idempotency key: a retry repeats both and the amount.
    const r = await this.call('alipay.trade.refund', {
      out_trade_no: input.orderNo,
      out_request_no: input.refundNo,
      refund_amount: fenToYuanText(input.amount),
      ...(input.reason ? { refund_reason: input.reason.slice(0, 256) } : {}),
    })
    if (r.fund_change === 'Y') return { state: 'SUCCESS' }
    // fund_change N (e.g. a repeated request) is not a failure by itself: ask what happened.
    const state = await this.queryRefund(input)
    if (state === 'SUCCESS' || state === 'PROCESSING') return { state }
    throw new ProviderError(`alipay: refund ${input.refundNo} not confirmed (${state})`, 'REFUND_NOT_CONFIRMED', true)
  }

  /**
   * alipay.trade.fastpay.refund.query (INTEGRATIONS §1.3): `refund_status=REFUND_SUCCESS` is the only
   * confirmation. An answer without the refund's fields means Alipay has no such refund (never received,
   * or failed): it may be requested again under the same out_request_no. The refund's fields without
   * a status: accepted, not confirmed yet.
   */
  async queryRefund(input: { orderNo: string; refundNo: string }): Promise<RefundQueryState> {
    const q = await this.call('alipay.trade.fastpay.refund.query', { out_trade_no: input.orderNo, out_request_no: input.refundNo }, ['ACQ.TRADE_NOT_EXIST'])
    if (q.code !== '10000') return 'NOT_FOUND'
    if (q.out_request_no !== undefined && q.out_request_no !== input.refundNo) {
      throw new ProviderError(`alipay refund query: answer is about refund ${String(q.out_request_no)}`, 'MISMATCH', true)
    }
    if (q.refund_status === 'REFUND_SUCCESS') return 'SUCCESS'
    if (q.out_request_no === undefined && q.refund_amount === undefined) return 'NOT_FOUND'
    return 'PROCESSING'
  }

  /**
   * One v2 gateway call with the response signature checked; the answer as it is, business errors
   * included. Transport errors, HTTP ≠ 200 and responses failing the signature check throw a
   * retryable ProviderError: the outcome is unknown.
   */
  private async execute(method: string, bizContent: Record<string, unknown>): Promise<AlipaySdkCommonResult> {
    try {
      return await this.sdk.exec(method, { bizContent, timestamp: alipayTime() }, { validateSign: true })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const code = err instanceof AlipayRequestError && /验签/.test(message) ? 'BAD_RESPONSE_SIGNATURE' : 'TRANSPORT'
      throw new ProviderError(`alipay ${method}: ${message}`, code, true)
    }
  }

  /**
   * One v2 gateway call. Business errors become ProviderError, except the sub codes the caller
   * handles (`accept`), which come back as the result.
   */
  private async call(method: string, bizContent: Record<string, string>, accept: string[] = []): Promise<AlipaySdkCommonResult> {
    const r = await this.execute(method, bizContent)
    if (r.code === '10000') return r
    if (r.sub_code && accept.includes(r.sub_code)) return r
    const retryable = r.code === '20000' || RETRYABLE_SUB_CODES.has(r.sub_code ?? '')
    throw new ProviderError(
      `alipay ${method}: ${r.code} ${r.sub_code ?? ''} ${r.sub_msg ?? r.msg ?? ''}`.trim(),
      r.sub_code ?? r.code ?? 'PROVIDER_ERROR',
      retryable,
    )
  }
}
