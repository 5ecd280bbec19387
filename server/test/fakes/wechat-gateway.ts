// A local stand-in for WeChat Pay API v3 (research/INTEGRATIONS.md §2, §6). WeChat Pay has no v3
// sandbox, so this is the only offline counterpart: it holds the merchant's registered public key
// and its own "WeChat Pay public key" (public-key mode, serial PUB_KEY_ID_…), checks our
// WECHATPAY2-SHA256-RSA2048 Authorization, signs every answer with the Wechatpay-* headers, keeps
// trades and refunds, and sends AES-256-GCM encrypted, signed payment and refund notifications to
// their notify_url, retrying until it gets a 2xx.
import crypto, { type KeyObject } from 'node:crypto'
import type { WechatConfig } from '../../src/config.ts'
import {
  type Delivery,
  type FakeRequest,
  type FakeResponse,
  type NotifyTransport,
  type OutgoingNotify,
  compressSchedule,
  deliverWithRetries,
  httpTransport,
  randomDigits,
  startServer,
} from './http.ts'

/** Retries after the first attempt: 15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/3h/3h/6h/6h (INTEGRATIONS §2.3). */
export const WECHAT_RETRY_MINUTES = [0.25, 0.25, 0.5, 3, 10, 20, 30, 30, 30, 60, 180, 180, 180, 360, 360]
const CLOCK_SKEW_S = 300

type TradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND' | 'USERPAYING' | 'PAYERROR' | 'REVOKED'
type RefundStatus = 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'CLOSED'
export type WechatFakeRefund = {
  refundId: string
  outRefundNo: string
  refund: number
  status: RefundStatus
  createdAt: Date
  successTime?: Date
  /** Where REFUND.* notifications go (the refund request's notify_url; none when it had none). */
  notifyUrl?: string
  /** The notification id used by finishRefund() (kept across its retries, and by replayRefund()). */
  notificationId?: string
}
type Refund = WechatFakeRefund

export type WechatFakeTrade = {
  appid: string
  outTradeNo: string
  transactionId?: string
  description: string
  total: number
  notifyUrl: string
  timeExpire?: Date
  codeUrl: string
  state: TradeState
  successTime?: Date
  refunds: Map<string, Refund>
  /** The notification id used by pay() (kept across its retries, and by replay()). */
  notificationId?: string
}

export type WechatNotifyOptions = {
  /** Changes to the decrypted resource, a transaction or a refund (e.g. another mchid, amount, trade_state). */
  transaction?: Record<string, unknown>
  /** Changes to the JSON envelope (id, event_type, resource fields) made before signing. */
  envelope?: Record<string, unknown>
  /** The associated_data written in the envelope; the ciphertext is always made with `transaction`. */
  declaredAad?: string
  /** Wechatpay-Timestamp in seconds (default: now). */
  timestamp?: number
  /** Wechatpay-Serial (default: the WeChat Pay public key id). */
  serial?: string
  /** A literal Wechatpay-Signature. */
  signature?: string
  /** A signature probe: the genuine signature prefixed with `WECHATPAY/SIGNTEST/` (must still fail). */
  signtest?: boolean
  /** `foreign` signs with a key that is not WeChat Pay's. */
  signWith?: 'platform' | 'foreign'
  /** Rewrites the body after signing: a tampered notification. */
  tamperBody?: (body: string) => string
  /** Notification id (default: a fresh EV-… id). */
  id?: string
}

/** What the next answers of one API do instead of the real thing. */
export type WechatFailure = { status: number; code: string; message?: string }
/** Ways to spoil the signature of API answers, to test that the merchant checks them. */
export type ResponseTampering = 'signature' | 'serial' | 'stale' | 'unsigned' | 'signtest'

function rfc3339(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`
}
const alnum = (n: number) => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return Array.from(crypto.randomBytes(n), (b) => chars[b % chars.length]).join('')
}

export class WechatPayGatewayFake {
  readonly appId = 'wx8888888888888888'
  readonly mchId = '1900009191'
  readonly mchSerial = crypto.randomBytes(20).toString('hex').toUpperCase()
  readonly apiV3Key = alnum(32)
  readonly platformSerial = `PUB_KEY_ID_0119000091912026${randomDigits(10)}`
  /** The merchant API key pair (the merchant keeps the private half; WeChat knows the public one). */
  readonly merchantKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  /** WeChat Pay's own key pair, whose public half the merchant downloads. */
  readonly platformKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  private foreignKey?: KeyObject
  readonly trades = new Map<string, WechatFakeTrade>()
  /** Requests that passed the Authorization check. */
  readonly calls: { method: string; path: string; body: unknown }[] = []
  readonly notifyLog: { orderNo: string; sent: OutgoingNotify; answer: { status: number; body: string } }[] = []
  retryDelaysMs = compressSchedule(WECHAT_RETRY_MINUTES)
  transport: NotifyTransport = httpTransport
  /** Status a new refund is answered with (real refunds usually start PROCESSING). */
  refundStatus: Refund['status'] = 'PROCESSING'
  /** Merchant balance available for refunds, in fen. */
  balanceFen = Number.MAX_SAFE_INTEGER
  /** Spoils the signature of every API answer while set. */
  responseTampering?: ResponseTampering
  private failures = new Map<string, WechatFailure[]>()
  private server?: { url: string; close: () => Promise<void> }

  static async start(): Promise<WechatPayGatewayFake> {
    const fake = new WechatPayGatewayFake()
    fake.server = await startServer((req) => fake.handle(req))
    return fake
  }

  get url(): string {
    if (!this.server) throw new Error('fake WeChat Pay not started')
    return this.server.url
  }

  /** What a merchant would configure: ids, merchant key (PKCS#8 PEM), APIv3 key, WeChat Pay public key. */
  wechatConfig(overrides: Partial<WechatConfig> = {}): WechatConfig {
    return {
      appId: this.appId,
      mchId: this.mchId,
      mchSerial: this.mchSerial,
      mchPrivateKey: this.merchantKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      apiV3Key: this.apiV3Key,
      platformPublicKey: this.platformKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      platformSerial: this.platformSerial,
      baseUrl: this.url,
      ...overrides,
    }
  }

  async stop() {
    await this.server?.close()
  }

  /** The next request to `path` (e.g. `/v3/refund/domestic/refunds`) is answered with this error. */
  failNext(path: string, failure: WechatFailure) {
    const queue = this.failures.get(path) ?? []
    queue.push(failure)
    this.failures.set(path, queue)
  }

  trade(orderNo: string): WechatFakeTrade {
    const t = this.trades.get(orderNo)
    if (!t) throw new Error(`fake WeChat Pay: no trade ${orderNo}`)
    return t
  }

  /** The buyer scans and pays: SUCCESS, then a TRANSACTION.SUCCESS notification with retries until 2xx. */
  async pay(orderNo: string, opts: { transaction?: Record<string, unknown>; notify?: boolean } = {}): Promise<Delivery> {
    const t = this.trade(orderNo)
    if (t.state !== 'NOTPAY') throw new Error(`fake WeChat Pay: trade ${orderNo} is ${t.state}`)
    if (t.timeExpire && t.timeExpire.getTime() < Date.now()) throw new Error(`fake WeChat Pay: trade ${orderNo} expired`)
    t.state = 'SUCCESS'
    t.successTime = new Date()
    t.transactionId = `4200${randomDigits(24)}`
    t.notificationId = this.newNotificationId()
    const id = t.notificationId
    // notify: false — the notification is lost on the way; only a query will tell the merchant.
    if (opts.notify === false) return { delivered: false, attempts: [], last: this.buildNotify(t, { id, transaction: opts.transaction }) }
    const transport: NotifyTransport = async (req) => {
      const answer = await this.transport(req)
      this.notifyLog.push({ orderNo, sent: req, answer })
      return answer
    }
    // Each attempt is signed afresh (new timestamp and nonce) with the same notification id.
    return deliverWithRetries(
      transport,
      () => this.buildNotify(t, { id, transaction: opts.transaction }),
      (a) => a.status >= 200 && a.status < 300,
      this.retryDelaysMs,
    )
  }

  /** Sends the same notification pay() sent (same id and content), freshly signed. */
  async replay(orderNo: string, opts: Omit<WechatNotifyOptions, 'id'> = {}) {
    const t = this.trade(orderNo)
    if (!t.notificationId) throw new Error(`fake WeChat Pay: nothing was sent for ${orderNo}`)
    return this.sendNotify(orderNo, { ...opts, id: t.notificationId })
  }

  /** One notification with changes (tampered, forged, probe, stale, foreign); returns the merchant's answer. */
  async sendNotify(orderNo: string, opts: WechatNotifyOptions = {}): Promise<{ status: number; body: string }> {
    const t = this.trade(orderNo)
    const notify = this.buildNotify(t, { ...opts, id: opts.id ?? this.newNotificationId() })
    const answer = await this.transport(notify)
    this.notifyLog.push({ orderNo, sent: notify, answer })
    return answer
  }

  /** The order times out or the merchant closes it: NOTPAY → CLOSED (WeChat sends no notification). */
  close(orderNo: string) {
    const t = this.trade(orderNo)
    if (t.state !== 'NOTPAY') throw new Error(`fake WeChat Pay: cannot close a ${t.state} trade`)
    t.state = 'CLOSED'
  }

  /** A refund by its out_refund_no, and its trade. */
  refundOf(outRefundNo: string): { trade: WechatFakeTrade; refund: WechatFakeRefund } {
    for (const trade of this.trades.values()) {
      const refund = trade.refunds.get(outRefundNo)
      if (refund) return { trade, refund }
    }
    throw new Error(`fake WeChat Pay: no refund ${outRefundNo}`)
  }

  /**
   * A PROCESSING refund reaches its end (SUCCESS, or CLOSED / ABNORMAL), and a REFUND.<status>
   * notification goes to its notify_url with retries until a 2xx (none when `notify: false`, or when
   * the refund was requested without a notify_url).
   */
  async finishRefund(outRefundNo: string, status: Exclude<RefundStatus, 'PROCESSING'> = 'SUCCESS', opts: { notify?: boolean } = {}): Promise<Delivery | undefined> {
    const { trade, refund } = this.refundOf(outRefundNo)
    if (refund.status !== 'PROCESSING') throw new Error(`fake WeChat Pay: refund ${outRefundNo} is ${refund.status}`)
    refund.status = status
    if (status === 'SUCCESS') refund.successTime = new Date()
    if (status === 'CLOSED') this.balanceFen += refund.refund // the money stays with the merchant
    if (opts.notify === false || !refund.notifyUrl) return undefined
    refund.notificationId = this.newNotificationId()
    const id = refund.notificationId
    const transport: NotifyTransport = async (req) => {
      const answer = await this.transport(req)
      this.notifyLog.push({ orderNo: trade.outTradeNo, sent: req, answer })
      return answer
    }
    return deliverWithRetries(transport, () => this.buildRefundNotify(trade, refund, { id }), (a) => a.status >= 200 && a.status < 300, this.retryDelaysMs)
  }

  /** One refund notification with changes (tampered, forged, stale…); returns the merchant's answer. */
  async sendRefundNotify(outRefundNo: string, opts: WechatNotifyOptions = {}): Promise<{ status: number; body: string }> {
    const { trade, refund } = this.refundOf(outRefundNo)
    const notify = this.buildRefundNotify(trade, refund, { ...opts, id: opts.id ?? this.newNotificationId() })
    const answer = await this.transport(notify)
    this.notifyLog.push({ orderNo: trade.outTradeNo, sent: notify, answer })
    return answer
  }

  /** Sends the same refund notification finishRefund() sent (same id and content), freshly signed. */
  async replayRefund(outRefundNo: string) {
    const { refund } = this.refundOf(outRefundNo)
    if (!refund.notificationId) throw new Error(`fake WeChat Pay: nothing was sent for refund ${outRefundNo}`)
    return this.sendRefundNotify(outRefundNo, { id: refund.notificationId })
  }

  /** The refund resource a REFUND.* notification carries (decrypted form). */
  refundResourceOf(t: WechatFakeTrade, r: WechatFakeRefund): Record<string, unknown> {
    return {
      mchid: this.mchId,
      out_trade_no: t.outTradeNo,
      transaction_id: t.transactionId,
      out_refund_no: r.outRefundNo,
      refund_id: r.refundId,
      refund_status: r.status,
      ...(r.successTime ? { success_time: rfc3339(r.successTime) } : {}),
      user_received_account: '支付用户零钱',
      amount: { total: t.total, refund: r.refund, payer_total: t.total, payer_refund: r.refund },
    }
  }

  /** The transaction resource a notification carries (decrypted form). */
  transactionOf(t: WechatFakeTrade): Record<string, unknown> {
    return {
      appid: t.appid,
      mchid: this.mchId,
      out_trade_no: t.outTradeNo,
      transaction_id: t.transactionId ?? `4200${randomDigits(24)}`,
      trade_type: 'NATIVE',
      trade_state: t.state,
      trade_state_desc: t.state === 'SUCCESS' ? '支付成功' : t.state,
      bank_type: 'OTHERS',
      attach: '',
      ...(t.successTime ? { success_time: rfc3339(t.successTime) } : {}),
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: t.total, payer_total: t.total, currency: 'CNY', payer_currency: 'CNY' },
    }
  }

  /** AEAD_AES_256_GCM as WeChat Pay does it: base64(ciphertext‖tag), 12-character nonce. */
  encrypt(plaintext: string, aad: string, key = this.apiV3Key): { ciphertext: string; nonce: string } {
    const nonce = alnum(12)
    const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), Buffer.from(nonce, 'utf8'))
    cipher.setAAD(Buffer.from(aad, 'utf8'))
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()])
    return { ciphertext: data.toString('base64'), nonce }
  }

  private newNotificationId() {
    return `EV-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomDigits(6)}`
  }

  private foreign(): KeyObject {
    this.foreignKey ??= crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    return this.foreignKey
  }

  private buildNotify(t: WechatFakeTrade, o: WechatNotifyOptions & { id: string }): OutgoingNotify {
    const resource = { ...this.transactionOf(t), ...o.transaction }
    return this.signedNotify(t.notifyUrl, resource, { originalType: 'transaction', eventType: 'TRANSACTION.SUCCESS', summary: '支付成功' }, o)
  }

  private buildRefundNotify(t: WechatFakeTrade, r: WechatFakeRefund, o: WechatNotifyOptions & { id: string }): OutgoingNotify {
    if (!r.notifyUrl) throw new Error(`fake WeChat Pay: refund ${r.outRefundNo} has no notify_url`)
    const resource = { ...this.refundResourceOf(t, r), ...o.transaction }
    const summary = { SUCCESS: '退款成功', CLOSED: '退款关闭', ABNORMAL: '退款异常', PROCESSING: '退款处理中' }[r.status]
    return this.signedNotify(r.notifyUrl, resource, { originalType: 'refund', eventType: `REFUND.${r.status}`, summary }, o)
  }

  /** An encrypted, signed notification envelope (INTEGRATIONS §2.3) to `url`. */
  private signedNotify(
    url: string,
    resource: Record<string, unknown>,
    kind: { originalType: string; eventType: string; summary: string },
    o: WechatNotifyOptions & { id: string },
  ): OutgoingNotify {
    const { ciphertext, nonce } = this.encrypt(JSON.stringify(resource), kind.originalType)
    const envelope = {
      id: o.id,
      create_time: rfc3339(new Date()),
      resource_type: 'encrypt-resource',
      event_type: kind.eventType,
      summary: kind.summary,
      resource: { original_type: kind.originalType, algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: o.declaredAad ?? kind.originalType, nonce },
      ...o.envelope,
    }
    const body = JSON.stringify(envelope)
    const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000))
    const sigNonce = alnum(32)
    const key = o.signWith === 'foreign' ? this.foreign() : this.platformKeys.privateKey
    let signature = o.signature ?? crypto.sign('RSA-SHA256', Buffer.from(`${ts}\n${sigNonce}\n${body}\n`, 'utf8'), key).toString('base64')
    if (o.signtest) signature = `WECHATPAY/SIGNTEST/${signature}`
    return {
      url,
      headers: {
        'content-type': 'application/json',
        'wechatpay-timestamp': ts,
        'wechatpay-nonce': sigNonce,
        'wechatpay-signature': signature,
        'wechatpay-serial': o.serial ?? this.platformSerial,
        'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
      },
      body: o.tamperBody ? o.tamperBody(body) : body,
    }
  }

  // ——— HTTP ———

  private async handle(req: FakeRequest): Promise<FakeResponse> {
    const bodyText = req.body.toString('utf8')
    const problem = this.checkAuthorization(req, bodyText)
    if (problem) return this.answer(401, { code: 'SIGN_ERROR', message: problem })
    if (!req.headers['user-agent']) return this.answer(400, { code: 'PARAM_ERROR', message: '缺少 User-Agent' })
    let body: Record<string, unknown> = {}
    if (bodyText) {
      try {
        body = JSON.parse(bodyText) as Record<string, unknown>
      } catch {
        return this.answer(400, { code: 'PARAM_ERROR', message: '请求体不是合法 JSON' })
      }
    }
    const path = req.url.pathname
    this.calls.push({ method: req.method, path: `${path}${req.url.search}`, body })
    const forced = this.failures.get(path)?.shift()
    if (forced) return this.answer(forced.status, { code: forced.code, message: forced.message ?? forced.code })

    if (req.method === 'POST' && path === '/v3/pay/transactions/native') return this.native(body)
    const byNo = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(path)
    if (byNo && req.method === 'GET' && !byNo[2]) return this.query(decodeURIComponent(byNo[1]!), req.url.searchParams.get('mchid'))
    if (byNo && req.method === 'POST' && byNo[2]) return this.closeApi(decodeURIComponent(byNo[1]!), body)
    if (req.method === 'POST' && path === '/v3/refund/domestic/refunds') return this.refund(body)
    const refundNo = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path)
    if (refundNo && req.method === 'GET') return this.refundQuery(decodeURIComponent(refundNo[1]!))
    return this.answer(404, { code: 'NOT_FOUND', message: '接口不存在' })
  }

  /** WECHATPAY2-SHA256-RSA2048 over `METHOD\n/path?query\nts\nnonce\nbody\n` (INTEGRATIONS §2.1). */
  private checkAuthorization(req: FakeRequest, bodyText: string): string | undefined {
    const auth = String(req.headers.authorization ?? '')
    if (!auth.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return '缺少或无效的 Authorization'
    const fields: Record<string, string> = {}
    for (const m of auth.slice('WECHATPAY2-SHA256-RSA2048 '.length).matchAll(/(\w+)="([^"]*)"/g)) fields[m[1]!] = m[2]!
    const { mchid, serial_no, timestamp, nonce_str, signature } = fields
    if (!mchid || !serial_no || !timestamp || !nonce_str || !signature) return 'Authorization 缺少字段'
    if (mchid !== this.mchId) return '商户号不存在'
    if (serial_no !== this.mchSerial) return '商户证书序列号有误'
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > CLOCK_SKEW_S) return '请求时间戳过期'
    const message = `${req.method}\n${req.url.pathname}${req.url.search}\n${timestamp}\n${nonce_str}\n${bodyText}\n`
    const ok = crypto.verify('RSA-SHA256', Buffer.from(message, 'utf8'), this.merchantKeys.publicKey, Buffer.from(signature, 'base64'))
    return ok ? undefined : '签名错误'
  }

  /** Every answer carries Wechatpay-* signature headers over `ts\nnonce\nbody\n`. */
  private answer(status: number, payload?: unknown): FakeResponse {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    let ts = String(Math.floor(Date.now() / 1000))
    const nonce = alnum(32)
    const tamper = this.responseTampering
    if (tamper === 'stale') ts = String(Number(ts) - CLOCK_SKEW_S - 60)
    let signature = crypto
      .sign('RSA-SHA256', Buffer.from(`${ts}\n${nonce}\n${body}\n`, 'utf8'), tamper === 'signature' ? this.foreign() : this.platformKeys.privateKey)
      .toString('base64')
    if (tamper === 'signtest') signature = `WECHATPAY/SIGNTEST/${signature}`
    const headers: Record<string, string> = { 'request-id': crypto.randomUUID() }
    if (body) headers['content-type'] = 'application/json; charset=utf-8'
    if (tamper !== 'unsigned') {
      Object.assign(headers, {
        'wechatpay-timestamp': ts,
        'wechatpay-nonce': nonce,
        'wechatpay-signature': signature,
        'wechatpay-serial': tamper === 'serial' ? 'PUB_KEY_ID_0000000000000000000000000000' : this.platformSerial,
        'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
      })
    }
    return { status, headers, body }
  }

  private native(b: Record<string, unknown>): FakeResponse {
    const bad = (message: string) => this.answer(400, { code: 'PARAM_ERROR', message })
    const amount = b.amount as { total?: unknown; currency?: unknown } | undefined
    if (b.appid !== this.appId) return bad('appid 和 mch_id 不匹配')
    if (b.mchid !== this.mchId) return bad('mchid 与请求商户号不一致')
    if (typeof b.description !== 'string' || !b.description || Array.from(b.description).length > 127) return bad('description 长度应为 1-127')
    if (typeof b.out_trade_no !== 'string' || !/^[0-9A-Za-z_\-|*]{6,32}$/.test(b.out_trade_no)) return bad('out_trade_no 格式错误')
    if (typeof b.notify_url !== 'string') return bad('notify_url 缺失')
    let notify: URL
    try {
      notify = new URL(b.notify_url)
    } catch {
      return bad('notify_url 格式错误')
    }
    // The real gateway wants https; the fake allows http to loopback so tests can receive notifies.
    const loopback = notify.hostname === '127.0.0.1' || notify.hostname === 'localhost'
    if ((notify.protocol !== 'https:' && !(notify.protocol === 'http:' && loopback)) || notify.search)
      return bad('notify_url 须为 https 且不能携带参数')
    if (!amount || !Number.isSafeInteger(amount.total) || (amount.total as number) < 1 || (amount.currency ?? 'CNY') !== 'CNY')
      return bad('amount 错误')
    let timeExpire: Date | undefined
    if (b.time_expire !== undefined) {
      if (typeof b.time_expire !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/.test(b.time_expire))
        return bad('time_expire 须为 RFC3339')
      timeExpire = new Date(b.time_expire)
      if (Number.isNaN(timeExpire.getTime())) return bad('time_expire 须为 RFC3339')
    }
    const existing = this.trades.get(b.out_trade_no)
    if (existing) {
      if (existing.state === 'SUCCESS' || existing.state === 'REFUND') return this.answer(400, { code: 'ORDERPAID', message: '该订单已支付' })
      if (existing.state === 'CLOSED') return this.answer(400, { code: 'ORDER_CLOSED', message: '订单已关闭' })
      if (existing.total !== amount.total || existing.description !== b.description)
        return this.answer(403, { code: 'OUT_TRADE_NO_USED', message: '商户订单号重复' })
      return this.answer(200, { code_url: existing.codeUrl })
    }
    const t: WechatFakeTrade = {
      appid: b.appid,
      outTradeNo: b.out_trade_no,
      description: b.description,
      total: amount.total as number,
      notifyUrl: b.notify_url,
      timeExpire,
      codeUrl: `weixin://wxpay/bizpayurl?pr=${alnum(7)}`,
      state: 'NOTPAY',
      refunds: new Map(),
    }
    this.trades.set(t.outTradeNo, t)
    return this.answer(200, { code_url: t.codeUrl })
  }

  private query(outTradeNo: string, mchid: string | null): FakeResponse {
    if (mchid !== this.mchId) return this.answer(400, { code: 'PARAM_ERROR', message: 'mchid 错误' })
    const t = this.trades.get(outTradeNo)
    if (!t) return this.answer(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' })
    const tx = this.transactionOf(t)
    if (!t.transactionId) delete tx.transaction_id
    if (t.state !== 'SUCCESS' && t.state !== 'REFUND') {
      delete tx.payer
      tx.amount = { total: t.total, currency: 'CNY' }
    }
    return this.answer(200, tx)
  }

  private closeApi(outTradeNo: string, b: Record<string, unknown>): FakeResponse {
    if (b.mchid !== this.mchId) return this.answer(400, { code: 'PARAM_ERROR', message: 'mchid 错误' })
    const t = this.trades.get(outTradeNo)
    if (!t) return this.answer(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' })
    if (t.state === 'SUCCESS' || t.state === 'REFUND') return this.answer(400, { code: 'ORDERPAID', message: '订单已支付' })
    t.state = 'CLOSED'
    return this.answer(204)
  }

  /** The refund API's description of a refund (the answer of both the request and the query). */
  private refundAnswer(t: WechatFakeTrade, r: Refund): FakeResponse {
    return this.answer(200, {
      refund_id: r.refundId,
      out_refund_no: r.outRefundNo,
      transaction_id: t.transactionId,
      out_trade_no: t.outTradeNo,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      ...(r.successTime ? { success_time: rfc3339(r.successTime) } : {}),
      create_time: rfc3339(r.createdAt),
      status: r.status,
      funds_account: 'AVAILABLE',
      amount: {
        total: t.total,
        refund: r.refund,
        payer_total: t.total,
        payer_refund: r.refund,
        settlement_refund: r.refund,
        settlement_total: t.total,
        discount_refund: 0,
        currency: 'CNY',
        refund_fee: 0,
      },
    })
  }

  private refundQuery(outRefundNo: string): FakeResponse {
    for (const t of this.trades.values()) {
      const r = t.refunds.get(outRefundNo)
      if (r) return this.refundAnswer(t, r)
    }
    return this.answer(404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' })
  }

  private refund(b: Record<string, unknown>): FakeResponse {
    const bad = (message: string, code = 'PARAM_ERROR', status = 400) => this.answer(status, { code, message })
    const amount = b.amount as { refund?: unknown; total?: unknown; currency?: unknown } | undefined
    if (typeof b.out_refund_no !== 'string' || !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(b.out_refund_no)) return bad('out_refund_no 格式错误')
    if (
      !amount ||
      !Number.isSafeInteger(amount.refund) ||
      !Number.isSafeInteger(amount.total) ||
      (amount.refund as number) < 1 ||
      amount.currency !== 'CNY'
    )
      return bad('amount 错误')
    let notifyUrl: string | undefined
    if (b.notify_url !== undefined) {
      let url: URL
      try {
        url = new URL(String(b.notify_url))
      } catch {
        return bad('notify_url 格式错误')
      }
      // As for payments: https, no query string (http to loopback allowed for tests).
      const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost'
      if ((url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) || url.search) return bad('notify_url 须为 https 且不能携带参数')
      notifyUrl = url.toString()
    }
    const t =
      typeof b.transaction_id === 'string'
        ? [...this.trades.values()].find((x) => x.transactionId === b.transaction_id)
        : this.trades.get(String(b.out_trade_no ?? ''))
    if (!t) return bad('订单不存在', 'RESOURCE_NOT_EXISTS', 404)
    const refund = amount.refund as number
    const existing = t.refunds.get(b.out_refund_no)
    if (existing) return existing.refund === refund ? this.refundAnswer(t, existing) : bad('请求参数与之前不一致', 'INVALID_REQUEST')
    if (t.state !== 'SUCCESS' && t.state !== 'REFUND') return bad('订单未支付', 'INVALID_REQUEST')
    if (amount.total !== t.total) return bad('订单金额与原订单不一致', 'INVALID_REQUEST')
    let refunded = 0
    for (const r of t.refunds.values()) if (r.status !== 'CLOSED') refunded += r.refund
    if (refund > t.total - refunded) return bad('申请退款金额超过订单可退金额', 'INVALID_REQUEST')
    if (refund > this.balanceFen) return bad('基本账户余额不足，请充值后重新发起', 'NOT_ENOUGH', 403)
    this.balanceFen -= refund
    const r: Refund = { refundId: `50${randomDigits(27)}`, outRefundNo: b.out_refund_no, refund, status: this.refundStatus, createdAt: new Date(), notifyUrl }
    if (r.status === 'SUCCESS') r.successTime = r.createdAt
    t.refunds.set(r.outRefundNo, r)
    t.state = 'REFUND'
    return this.refundAnswer(t, r)
  }
}
