import crypto, { type KeyObject } from 'node:crypto'
import type { Fen } from '#contract/money.ts'
import type { WechatConfig } from '../../config.ts'
import { rfc3339China } from './china-time.ts'
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
  type RefundNotification,
  type RefundQueryState,
  type RefundResult,
} from './types.ts'

/** Signed messages older or newer than this are refused (wechatpay-axios-plugin's MAXIMUM_CLOCK_OFFSET). */
const MAX_CLOCK_SKEW_S = 300
/** WeChat Pay probes merchants with deliberately broken signatures that must fail (INTEGRATIONS §2.2). */
const SIGNTEST_PREFIX = 'WECHATPAY/SIGNTEST/'
const TIMEOUT_MS = 10_000
const RETRYABLE_CODES = new Set(['SYSTEM_ERROR', 'SYSTEMERROR', 'FREQUENCY_LIMITED', 'BANKERROR'])

export type EncryptedResource = { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string }

/**
 * AEAD_AES_256_GCM with the APIv3 key (INTEGRATIONS §2.3): `ciphertext` is base64 of
 * ciphertext‖16-byte tag, `nonce` the 12-character IV, `associated_data` the AAD. Throws when the
 * tag does not match (wrong key, nonce, AAD or a changed byte).
 */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  const key = Buffer.from(apiV3Key, 'utf8')
  const data = Buffer.from(resource.ciphertext, 'base64')
  if (key.length !== 32) throw new Error('the APIv3 key must be 32 bytes')
  if (data.length < 17) throw new Error('ciphertext too short')
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(resource.nonce, 'utf8'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
}

/** `description` is at most 127 long; cut on a character boundary within 127 UTF-8 bytes to be safe. */
function wechatDescription(subject: string): string {
  let out = ''
  for (const ch of subject.replace(/\s+/g, ' ').trim()) {
    if (Buffer.byteLength(out + ch, 'utf8') > 127) break
    out += ch
  }
  return out || 'PayShare'
}

type HeaderMap = Record<string, string | string[] | undefined>

function header(headers: HeaderMap, name: string): string {
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
}

/** A refund as the refund API and REFUND.* notifications describe it (`status` there, `refund_status` here). */
type RefundResource = {
  mchid?: unknown
  out_trade_no?: unknown
  out_refund_no?: unknown
  status?: unknown
  refund_status?: unknown
  amount?: { refund?: unknown }
}

type Transaction = {
  appid?: unknown
  mchid?: unknown
  out_trade_no?: unknown
  transaction_id?: unknown
  trade_state?: unknown
  amount?: { total?: unknown }
}

/**
 * WeChat Pay API v3, Native payment (QR code), with a hand-written WECHATPAY2-SHA256-RSA2048 signer
 * on node:crypto and fetch. Works in public-key mode (`PUB_KEY_ID_…`) and with one platform
 * certificate. research/INTEGRATIONS.md §2; docs/decisions/006-payment-gateways.md.
 */
export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechat' as const
  private readonly merchantKey: KeyObject
  private readonly platformKey: KeyObject
  private readonly baseUrl: URL

  constructor(private readonly config: WechatConfig) {
    this.merchantKey = rsaPrivateKey(config.mchPrivateKey, 'WECHAT_MCH_PRIVATE_KEY')
    this.platformKey = rsaPublicKey(config.platformPublicKey, 'WECHAT_PLATFORM_PUBLIC_KEY')
    if (Buffer.byteLength(config.apiV3Key, 'utf8') !== 32) throw new Error('WECHAT_API_V3_KEY must be 32 characters')
    this.baseUrl = new URL(config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`)
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    const res = await this.request('POST', '/v3/pay/transactions/native', {
      appid: this.config.appId,
      mchid: this.config.mchId,
      description: wechatDescription(input.subject),
      out_trade_no: input.orderNo,
      time_expire: rfc3339China(input.expiresAt),
      notify_url: input.notifyUrl,
      amount: { total: input.amount, currency: 'CNY' },
    })
    const codeUrl = (res.json as { code_url?: unknown } | undefined)?.code_url
    if (res.status !== 200 || typeof codeUrl !== 'string') throw this.failure('native order', res)
    return { qrCode: codeUrl }
  }

  async parseNotification(req: { headers: HeaderMap; rawBody: string }): Promise<PaymentNotification> {
    // Payment notifications only: refunds report to their own notify_url (parseRefundNotification).
    const { id, resource } = this.openNotification(req, 'transaction')
    const tx = resource as Transaction
    if (tx.appid !== this.config.appId) throw new NotificationRejected(`wechat: foreign appid ${String(tx.appid)}`)
    if (tx.mchid !== this.config.mchId) throw new NotificationRejected(`wechat: foreign mchid ${String(tx.mchid)}`)
    const total = tx.amount?.total
    if (typeof tx.out_trade_no !== 'string' || typeof tx.transaction_id !== 'string' || !Number.isSafeInteger(total) || (total as number) < 0) {
      throw new NotificationRejected('wechat: missing fields')
    }
    const state = tx.trade_state === 'SUCCESS' ? 'PAID' : ['CLOSED', 'REVOKED', 'PAYERROR'].includes(String(tx.trade_state)) ? 'CLOSED' : 'OTHER'
    return { eventKey: id, orderNo: tx.out_trade_no, tradeNo: tx.transaction_id, state, amount: total as Fen }
  }

  /**
   * A REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED notification (sent to the refund's notify_url):
   * signed and encrypted like a payment notification; the outcome is read from the encrypted
   * `refund_status`, never from the clear-text event_type.
   */
  async parseRefundNotification(req: { headers: HeaderMap; rawBody: string }): Promise<RefundNotification> {
    const { id, resource } = this.openNotification(req, 'refund')
    const r = resource as RefundResource
    if (r.mchid !== this.config.mchId) throw new NotificationRejected(`wechat: foreign mchid ${String(r.mchid)}`)
    const amount = r.amount?.refund
    if (typeof r.out_trade_no !== 'string' || typeof r.out_refund_no !== 'string' || !Number.isSafeInteger(amount) || (amount as number) < 0) {
      throw new NotificationRejected('wechat: missing refund fields')
    }
    const state = r.refund_status
    if (state !== 'SUCCESS' && state !== 'CLOSED' && state !== 'ABNORMAL') throw new NotificationRejected(`wechat: refund_status ${String(state)}`)
    return { eventKey: id, orderNo: r.out_trade_no, refundNo: r.out_refund_no, state, amount: amount as Fen }
  }

  /**
   * The common part of every notification: genuine signature (checkSignature), a JSON envelope with an
   * id, and an AEAD_AES_256_GCM resource of the expected original_type that decrypts with the APIv3 key.
   */
  private openNotification(req: { headers: HeaderMap; rawBody: string }, originalType: 'transaction' | 'refund'): { id: string; resource: Record<string, unknown> } {
    const problem = this.checkSignature(req.headers, Buffer.from(req.rawBody, 'utf8'))
    if (problem) throw new NotificationRejected(`wechat: ${problem}`)
    let envelope: { id?: unknown; resource?: Partial<EncryptedResource> & { original_type?: unknown } }
    try {
      envelope = JSON.parse(req.rawBody)
    } catch {
      throw new NotificationRejected('wechat: body is not JSON')
    }
    const resource = envelope?.resource
    if (typeof envelope?.id !== 'string' || !envelope.id) throw new NotificationRejected('wechat: notification without id')
    if (!resource || resource.algorithm !== 'AEAD_AES_256_GCM' || typeof resource.ciphertext !== 'string' || typeof resource.nonce !== 'string') {
      throw new NotificationRejected('wechat: unsupported resource')
    }
    if (resource.original_type !== originalType) throw new NotificationRejected(`wechat: unexpected ${String(resource.original_type)} notification`)
    let plain: unknown
    try {
      plain = JSON.parse(
        decryptResource(
          {
            ciphertext: resource.ciphertext,
            nonce: resource.nonce,
            associated_data: typeof resource.associated_data === 'string' ? resource.associated_data : '',
          },
          this.config.apiV3Key,
        ),
      )
    } catch {
      throw new NotificationRejected('wechat: resource does not decrypt')
    }
    if (!plain || typeof plain !== 'object') throw new NotificationRejected('wechat: resource is not an object')
    return { id: envelope.id, resource: plain as Record<string, unknown> }
  }

  ack(ok: boolean) {
    // WeChat reads the status first: 2xx is success (even with a FAIL body), 4xx/5xx makes it retry.
    return ok
      ? { status: 204, contentType: 'application/json', body: '' }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: 'notification rejected' }) }
  }

  async queryPayment(orderNo: string): Promise<PaymentQuery> {
    const res = await this.request(
      'GET',
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.config.mchId)}`,
    )
    const body = res.json as (Transaction & { code?: unknown }) | undefined
    if (res.status === 404 && body?.code === 'ORDER_NOT_EXIST') return { state: 'NOT_FOUND' }
    if (res.status !== 200 || !body) throw this.failure('query', res)
    if (body.mchid !== this.config.mchId || body.out_trade_no !== orderNo)
      throw new ProviderError('wechat query: answer is about another order', 'MISMATCH', true)
    const tradeNo = typeof body.transaction_id === 'string' ? body.transaction_id : undefined
    const amount = Number.isSafeInteger(body.amount?.total) ? (body.amount!.total as Fen) : undefined
    switch (body.trade_state) {
      case 'SUCCESS':
        return { state: 'PAID', tradeNo, amount }
      case 'NOTPAY':
      case 'USERPAYING':
      case 'ACCEPT':
        return { state: 'PENDING', tradeNo, amount }
      // REFUND: paid, then refunded outside this order's flow; a pending order must not complete on it.
      case 'CLOSED':
      case 'REVOKED':
      case 'PAYERROR':
      case 'REFUND':
        return { state: 'CLOSED', tradeNo, amount }
      default:
        throw new ProviderError(`wechat query: unknown trade_state ${String(body.trade_state)}`, 'UNKNOWN_STATE', true)
    }
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    // out_refund_no is the idempotency key: a retry sends the same one with the same amounts.
    const res = await this.request('POST', '/v3/refund/domestic/refunds', {
      out_trade_no: input.orderNo,
      out_refund_no: input.refundNo,
      ...(input.reason ? { reason: Array.from(input.reason).slice(0, 80).join('') } : {}),
      ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
      amount: { refund: input.amount, total: input.totalAmount, currency: 'CNY' },
    })
    if (res.status !== 200) throw this.failure('refund', res)
    const status = this.refundStatusOf(res.json, input)
    if (status === 'SUCCESS' || status === 'PROCESSING') return { state: status }
    throw new ProviderError(`wechat refund ${input.refundNo}: status ${String(status)}`, `REFUND_${String(status)}`, false)
  }

  /** GET /v3/refund/domestic/refunds/{out_refund_no}; 404 RESOURCE_NOT_EXISTS: WeChat Pay has no such refund. */
  async queryRefund(input: { orderNo: string; refundNo: string }): Promise<RefundQueryState> {
    const res = await this.request('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(input.refundNo)}`)
    if (res.status === 404 && (res.json as { code?: unknown } | undefined)?.code === 'RESOURCE_NOT_EXISTS') return 'NOT_FOUND'
    if (res.status !== 200) throw this.failure('refund query', res)
    const status = this.refundStatusOf(res.json, input)
    if (status === 'SUCCESS' || status === 'PROCESSING' || status === 'CLOSED' || status === 'ABNORMAL') return status
    throw new ProviderError(`wechat refund query: unknown status ${String(status)}`, 'UNKNOWN_STATE', true)
  }

  /** The status of a refund answer, which must be about this refund of this order. */
  private refundStatusOf(json: unknown, input: { orderNo: string; refundNo: string }): unknown {
    const body = (json ?? {}) as RefundResource
    if (body.out_refund_no !== input.refundNo || body.out_trade_no !== input.orderNo) {
      throw new ProviderError(`wechat refund ${input.refundNo}: answer is about another refund`, 'MISMATCH', true)
    }
    return body.status
  }

  /**
   * Checks a signed message from WeChat Pay (a response or a notification): known serial, no
   * SIGNTEST probe, timestamp within ±300 s, RSA-SHA256 over `ts\nnonce\nbody\n`. Returns the
   * problem, or undefined when it is genuine.
   */
  private checkSignature(headers: HeaderMap, body: Buffer): string | undefined {
    const ts = header(headers, 'wechatpay-timestamp')
    const nonce = header(headers, 'wechatpay-nonce')
    const signature = header(headers, 'wechatpay-signature')
    const serial = header(headers, 'wechatpay-serial')
    if (!ts || !nonce || !signature || !serial) return 'unsigned'
    if (signature.startsWith(SIGNTEST_PREFIX)) return 'signature probe (SIGNTEST)'
    if (serial !== this.config.platformSerial) return `unknown serial ${serial}`
    if (!/^\d{1,12}$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > MAX_CLOCK_SKEW_S) return 'timestamp outside the 300 s window'
    const message = Buffer.concat([Buffer.from(`${ts}\n${nonce}\n`, 'utf8'), body, Buffer.from('\n', 'utf8')])
    const ok = crypto.verify('RSA-SHA256', message, this.platformKey, Buffer.from(signature, 'base64'))
    return ok ? undefined : 'bad signature'
  }

  /** One signed API call; the answer's signature is checked for 2xx and 404 (the answers we act on). */
  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl)
    const bodyText = body === undefined ? '' : JSON.stringify(body)
    const ts = String(Math.floor(Date.now() / 1000))
    const nonce = crypto.randomBytes(16).toString('hex').toUpperCase()
    const signed = `${method}\n${url.pathname}${url.search}\n${ts}\n${nonce}\n${bodyText}\n`
    const signature = crypto.sign('RSA-SHA256', Buffer.from(signed, 'utf8'), this.merchantKey).toString('base64')
    const authorization =
      `WECHATPAY2-SHA256-RSA2048 mchid="${this.config.mchId}",nonce_str="${nonce}",signature="${signature}",` +
      `timestamp="${ts}",serial_no="${this.config.mchSerial}"`
    let res: Response
    let raw: Buffer
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          'user-agent': 'PayShare/1.0 (+node)',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : bodyText,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      raw = Buffer.from(await res.arrayBuffer())
    } catch (err) {
      throw new ProviderError(`wechat ${method} ${url.pathname}: ${err instanceof Error ? err.message : String(err)}`, 'TRANSPORT', true)
    }
    if ((res.status >= 200 && res.status < 300) || res.status === 404) {
      const headers = Object.fromEntries(res.headers.entries())
      const problem = this.checkSignature(headers, raw)
      // An unverifiable 2xx is treated as forged (INTEGRATIONS §2.2); the real outcome is unknown.
      if (problem) throw new ProviderError(`wechat ${method} ${url.pathname}: response ${problem}`, 'BAD_RESPONSE_SIGNATURE', true)
    }
    const text = raw.toString('utf8')
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: res.status, json, text }
  }

  private failure(what: string, res: { status: number; json: unknown; text: string }): ProviderError {
    const body = (res.json ?? {}) as { code?: unknown; message?: unknown }
    const code = typeof body.code === 'string' ? body.code : `HTTP_${res.status}`
    const retryable = res.status >= 500 || res.status === 429 || RETRYABLE_CODES.has(code)
    return new ProviderError(
      `wechat ${what}: ${res.status} ${code} ${typeof body.message === 'string' ? body.message : res.text.slice(0, 200)}`,
      code,
      retryable,
    )
  }
}
