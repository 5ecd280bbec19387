// A local stand-in for the Alipay open platform gateway (research/INTEGRATIONS.md §1.2, §1.3, §6):
// it holds its own "Alipay" RSA key pair, checks our RSA2 request signatures with the app public key
// exactly as the gateway does, answers signed responses, keeps trades, renders a cashier page for
// alipay.trade.page.pay and POSTs signed notifies to notify_url, retrying until it reads `success`.
// In certificate mode (`certConfig()`) it also checks the certificates' serial numbers on every call and
// pays sellers out (alipay.fund.trans.uni.transfer, .common.query), which it refuses in public-key mode.
import crypto, { type KeyObject } from 'node:crypto'
import type { AlipayConfig } from '../../src/config.ts'
import { type AlipayCertificates, alipayCertSn, alipayRootCertSn, issueAlipayCertificates } from './alipay-certs.ts'
import {
  type Delivery,
  type FakeRequest,
  type FakeResponse,
  type NotifyTransport,
  type OutgoingNotify,
  compressSchedule,
  deliverWithRetries,
  escapeHtml,
  httpTransport,
  randomDigits,
  startServer,
} from './http.ts'

/** Alipay's notify retries after the first attempt: 4m,10m,10m,1h,2h,6h,15h (INTEGRATIONS §1.2). */
export const ALIPAY_RETRY_MINUTES = [4, 10, 10, 60, 120, 360, 900]
/** How far our `timestamp` may be from Beijing time before the fake answers isv.invalid-timestamp. */
const TIMESTAMP_TOLERANCE_MS = 10 * 60 * 1000

type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED'
type Refund = { outRequestNo: string; amountFen: number; settled: boolean; at: Date }

export type AlipayFakeTrade = {
  outTradeNo: string
  tradeNo: string
  amountFen: number
  subject: string
  notifyUrl?: string
  returnUrl?: string
  timeExpire?: Date
  status: TradeStatus
  gmtCreate: Date
  gmtPayment?: Date
  refunds: Map<string, Refund>
  /** The last genuine notification pay() sent for this trade (for replays). */
  lastNotify?: OutgoingNotify
}

/** A payout (fund.trans.uni.transfer) as the fake keeps it, by out_biz_no. */
export type AlipayFakeTransfer = {
  outBizNo: string
  orderId: string
  payFundOrderId: string
  amountFen: number
  identity: string
  identityType: string
  name?: string
  title?: string
  status: 'SUCCESS' | 'DEALING'
  transDate: Date
}

type BizError = { code: string; msg: string; sub_code: string; sub_msg: string }
type BizResult = { ok: Record<string, unknown> } | { error: BizError }
/**
 * A forced answer for the next call of one API method. `http500AfterApplying`: the call takes effect
 * (a transfer is made) but the answer is lost — the merchant sees an error and must not assume failure.
 */
export type AlipayFailure = { code?: string; msg?: string; sub_code: string; sub_msg?: string } | 'http500' | 'badSignature' | 'http500AfterApplying'

export type AlipayNotifyOptions = {
  /** Field changes made before signing (`null` removes a field): a genuine but unusual notify. */
  fields?: Record<string, string | null>
  /** Field changes made after signing: a tampered notify. */
  tamper?: Record<string, string | null>
  /** `foreign` signs with a key that is not Alipay's: a forged notify. */
  signWith?: 'alipay' | 'foreign'
  /** Keep one notify_id across sends (the gateway does across retries); a fresh one by default. */
  notifyId?: string
  /** Deliver somewhere else than the trade's notify_url. */
  url?: string
}

const bizError = (sub_code: string, sub_msg: string, code = '40004', msg = 'Business Failed'): { error: BizError } => ({
  error: { code, msg, sub_code, sub_msg },
})

/** yyyy-MM-dd HH:mm:ss in Beijing time (Alipay's wire format); independent of the product's helper. */
function beijing(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}
function parseBeijing(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined
  const d = new Date(`${text.replace(' ', 'T')}+08:00`)
  return Number.isNaN(d.getTime()) ? undefined : d
}
function yuanText(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`
}
/** total_amount rules (INTEGRATIONS §1.3): yuan, at most 2 decimals, 0.01 – 100000000. */
function parseYuan(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(text)) return undefined
  const [int, frac = ''] = text.split('.')
  const fen = Number(int) * 100 + Number(frac.padEnd(2, '0'))
  return fen >= 1 && fen <= 100_000_000 * 100 ? fen : undefined
}

/** The v2 string to sign: every parameter but `sign` (and empty ones), sorted, `k=v` joined by `&`. */
export function alipaySignContent(params: Record<string, string>, omit: string[] = ['sign']): string {
  return Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
}

export class AlipayGatewayFake {
  readonly appId = '2021000149600001'
  readonly sellerId = '2088621000000001'
  readonly appKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  readonly alipayKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  private foreignKey?: KeyObject
  readonly trades = new Map<string, AlipayFakeTrade>()
  /** Every gateway call that passed the signature check: method and all parameters. */
  readonly calls: { method: string; params: Record<string, string> }[] = []
  /** Every notify attempt: what was sent and what the merchant answered. */
  readonly notifyLog: { orderNo: string; sent: OutgoingNotify; answer: { status: number; body: string } }[] = []
  /** Delays between notify attempts; the real schedule at 1 ms per real hour by default. */
  retryDelaysMs = compressSchedule(ALIPAY_RETRY_MINUTES)
  transport: NotifyTransport = httpTransport
  /** `deferred`: refunds answer fund_change N and stay unsettled until settleRefunds(). */
  refundMode: 'instant' | 'deferred' = 'instant'
  /** Merchant balance available for refunds and payouts, in fen. */
  sellerBalanceFen = Number.MAX_SAFE_INTEGER
  /** Alipay accounts that exist (login or 2088… id → real name); payouts to others fail. */
  readonly payees = new Map<string, string>()
  readonly transfers = new Map<string, AlipayFakeTransfer>()
  /** `dealing`: new transfers stay DEALING until settleTransfers(). */
  transferMode: 'instant' | 'dealing' = 'instant'
  private certs?: AlipayCertificates
  private failures = new Map<string, AlipayFailure[]>()
  private server?: { url: string; close: () => Promise<void> }

  static async start(): Promise<AlipayGatewayFake> {
    const fake = new AlipayGatewayFake()
    fake.server = await startServer((req) => fake.handle(req))
    return fake
  }

  get url(): string {
    if (!this.server) throw new Error('fake Alipay gateway not started')
    return this.server.url
  }
  get gateway(): string {
    return `${this.url}/gateway.do`
  }

  /** What a merchant would configure: app id, app private key (PKCS#1 PEM), Alipay public key, gateway. */
  alipayConfig(overrides: Partial<AlipayConfig> = {}): AlipayConfig {
    return {
      appId: this.appId,
      privateKey: this.appKeys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      alipayPublicKey: this.alipayKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      sellerId: this.sellerId,
      gateway: this.gateway,
      ...overrides,
    }
  }

  /**
   * Certificate mode (公钥证书): the same app and keys, with the app certificate, Alipay's public key
   * certificate and the root chain this fake issued (made on first use).
   */
  certConfig(overrides: Partial<AlipayConfig> = {}): AlipayConfig {
    const certs = this.certificates()
    return {
      ...this.alipayConfig(),
      alipayPublicKey: new crypto.X509Certificate(certs.alipayPublicCert).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      certs,
      ...overrides,
    }
  }

  certificates(): AlipayCertificates {
    this.certs ??= issueAlipayCertificates(this.appKeys, this.alipayKeys)
    return this.certs
  }

  /** Transfers left DEALING reach their payees. */
  settleTransfers() {
    for (const t of this.transfers.values()) t.status = 'SUCCESS'
  }

  async stop() {
    await this.server?.close()
  }

  /** The next call of `method` gets this answer instead of the real one. */
  failNext(method: string, failure: AlipayFailure) {
    const queue = this.failures.get(method) ?? []
    queue.push(failure)
    this.failures.set(method, queue)
  }

  trade(orderNo: string): AlipayFakeTrade {
    const t = this.trades.get(orderNo)
    if (!t) throw new Error(`fake Alipay: no trade ${orderNo} (open the pay URL first, as a browser would)`)
    return t
  }

  /** Opens a page-pay URL like the buyer's browser; returns the HTTP status and the cashier HTML. */
  async open(payUrl: string): Promise<{ status: number; html: string }> {
    const res = await fetch(payUrl, { redirect: 'manual' })
    return { status: res.status, html: await res.text() }
  }

  /**
   * The buyer pays: the trade becomes TRADE_SUCCESS and a signed notify goes to notify_url, retried
   * on the compressed schedule until the merchant answers exactly `success`.
   */
  async pay(orderNo: string, opts: { fields?: Record<string, string | null>; notify?: boolean } = {}): Promise<Delivery> {
    const t = this.trade(orderNo)
    if (t.status !== 'WAIT_BUYER_PAY') throw new Error(`fake Alipay: trade ${orderNo} is ${t.status}`)
    if (t.timeExpire && t.timeExpire.getTime() < Date.now()) throw new Error(`fake Alipay: trade ${orderNo} expired`)
    t.status = 'TRADE_SUCCESS'
    t.gmtPayment = new Date()
    const notifyId = this.newNotifyId()
    const notify = this.buildNotify(t, { fields: opts.fields, notifyId })
    t.lastNotify = notify
    // notify: false — the notify is lost on the way; only a query will tell the merchant.
    if (opts.notify === false) return { delivered: false, attempts: [], last: notify }
    return this.deliver(orderNo, notify)
  }

  /** One notify with changes (tampered, forged, foreign, out of order); returns the merchant's answer. */
  async sendNotify(orderNo: string, opts: AlipayNotifyOptions = {}): Promise<{ status: number; body: string }> {
    const t = this.trade(orderNo)
    const notify = this.buildNotify(t, { ...opts, notifyId: opts.notifyId ?? this.newNotifyId() })
    const answer = await this.transport(notify)
    this.notifyLog.push({ orderNo, sent: notify, answer })
    return answer
  }

  /** Sends the last notification of a trade again, byte for byte. */
  async replay(orderNo: string): Promise<{ status: number; body: string }> {
    const last = this.trade(orderNo).lastNotify
    if (!last) throw new Error(`fake Alipay: nothing was sent for ${orderNo}`)
    const answer = await this.transport(last)
    this.notifyLog.push({ orderNo, sent: last, answer })
    return answer
  }

  /** The buyer gives up or the trade times out: WAIT_BUYER_PAY → TRADE_CLOSED (no notify by default). */
  close(orderNo: string) {
    const t = this.trade(orderNo)
    if (t.status !== 'WAIT_BUYER_PAY') throw new Error(`fake Alipay: cannot close a ${t.status} trade`)
    t.status = 'TRADE_CLOSED'
  }

  /** Deferred refunds reach the buyer. */
  settleRefunds() {
    for (const t of this.trades.values()) for (const r of t.refunds.values()) r.settled = true
  }

  // ——— notifications ———

  private newNotifyId() {
    return `${crypto.randomBytes(16).toString('hex')}`
  }

  private buildNotify(t: AlipayFakeTrade, o: AlipayNotifyOptions & { notifyId: string }): OutgoingNotify {
    const url = o.url ?? t.notifyUrl
    if (!url) throw new Error(`fake Alipay: trade ${t.outTradeNo} has no notify_url`)
    const amount = yuanText(t.amountFen)
    let fields: Record<string, string> = {
      notify_time: beijing(new Date()),
      notify_type: 'trade_status_sync',
      notify_id: o.notifyId,
      app_id: this.appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: t.tradeNo,
      out_trade_no: t.outTradeNo,
      buyer_id: '2088102177846880',
      buyer_logon_id: 'buy***@example.com',
      seller_id: this.sellerId,
      seller_email: 'merchant@example.com',
      trade_status: t.status,
      total_amount: amount,
      receipt_amount: amount,
      invoice_amount: amount,
      buyer_pay_amount: amount,
      point_amount: '0.00',
      subject: t.subject,
      gmt_create: beijing(t.gmtCreate),
      ...(t.gmtPayment ? { gmt_payment: beijing(t.gmtPayment) } : {}),
      fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
    }
    fields = applyChanges(fields, o.fields)
    // Notify signatures leave out sign and sign_type (INTEGRATIONS §1.2).
    const key = o.signWith === 'foreign' ? this.foreign() : this.alipayKeys.privateKey
    // sign_type RSA (legacy) means SHA-1, as on the real gateway.
    const algorithm = fields.sign_type === 'RSA' ? 'RSA-SHA1' : 'RSA-SHA256'
    fields.sign = crypto.sign(algorithm, Buffer.from(alipaySignContent(fields, ['sign', 'sign_type']), 'utf8'), key).toString('base64')
    fields = applyChanges(fields, o.tamper)
    return { url, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: new URLSearchParams(fields).toString() }
  }

  private async deliver(orderNo: string, notify: OutgoingNotify): Promise<Delivery> {
    const transport: NotifyTransport = async (req) => {
      const answer = await this.transport(req)
      this.notifyLog.push({ orderNo, sent: req, answer })
      return answer
    }
    // Only the exact body `success` counts (INTEGRATIONS §1.2); the same notify is resent.
    return deliverWithRetries(
      transport,
      () => notify,
      (a) => a.body === 'success',
      this.retryDelaysMs,
    )
  }

  private foreign(): KeyObject {
    this.foreignKey ??= crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    return this.foreignKey
  }

  // ——— HTTP ———

  private async handle(req: FakeRequest): Promise<FakeResponse> {
    if (req.url.pathname === '/gateway.do') return this.gatewayV2(req)
    if (req.url.pathname.startsWith('/v3/')) return this.gatewayV3(req)
    if (req.method === 'POST' && (req.url.pathname === '/cashier/pay' || req.url.pathname === '/cashier/cancel')) return this.cashierAction(req)
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' }
  }

  private async gatewayV2(req: FakeRequest): Promise<FakeResponse> {
    const params: Record<string, string> = {}
    for (const [k, v] of req.url.searchParams) params[k] = v
    if (req.method === 'POST' && String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
      for (const [k, v] of new URLSearchParams(req.body.toString('utf8'))) params[k] = v
    }
    const method = params.method ?? ''
    const isPage = method === 'alipay.trade.page.pay'
    const problem = this.checkV2Request(params)
    const certMode = Boolean(params.app_cert_sn)
    if (problem) {
      if (isPage) return this.errorPage(problem)
      if (!method) return json({ error_response: problem })
      return this.signedV2(method, problem, false, certMode)
    }
    this.calls.push({ method, params })
    let biz: Record<string, unknown>
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>
    } catch {
      const e = bizError('isv.invalid-biz-content', 'biz_content 不是合法 JSON', '40002', 'Invalid Arguments').error
      return isPage ? this.errorPage(e) : this.signedV2(method, e)
    }
    if (isPage) return this.pagePay(params, biz)

    const forced = this.failures.get(method)?.shift()
    if (forced === 'http500') return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
    if (method.startsWith('alipay.fund.') && !certMode) {
      // Fund transfers are offered to certificate-mode apps only (INTEGRATIONS §1.3). [guess] the sub code.
      return this.signedV2(method, bizError('isv.missing-app-cert-sn', '转账类接口必须使用公钥证书模式', '40002', 'Invalid Arguments').error)
    }
    const result =
      forced && typeof forced === 'object'
        ? bizError(forced.sub_code, forced.sub_msg ?? forced.sub_code, forced.code ?? '40004', forced.msg)
        : this.business(method, biz)
    if (forced === 'http500AfterApplying') return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }
    const payload = 'ok' in result ? { code: '10000', msg: 'Success', ...result.ok } : result.error
    return this.signedV2(method, payload, forced === 'badSignature', certMode)
  }

  /** Gateway-level checks, in the gateway's order; undefined when the request may proceed. */
  private checkV2Request(params: Record<string, string>): BizError | undefined {
    const invalid = (sub_code: string, sub_msg: string) => ({ code: '40002', msg: 'Invalid Arguments', sub_code, sub_msg })
    if (!params.method) return { code: '40001', msg: 'Missing Required Arguments', sub_code: 'isv.missing-method', sub_msg: '缺少方法名参数' }
    if (!params.sign) return { code: '40001', msg: 'Missing Required Arguments', sub_code: 'isv.missing-signature', sub_msg: '缺少签名参数' }
    if (params.app_id !== this.appId) return invalid('isv.invalid-app-id', '无效的AppID参数')
    if (params.sign_type !== 'RSA2') return invalid('isv.invalid-signature-type', '无效的签名类型')
    if (params.charset && params.charset.toLowerCase() !== 'utf-8') return invalid('isv.invalid-charset', '字符集错误')
    const ts = parseBeijing(params.timestamp ?? '')
    if (!ts || Math.abs(ts.getTime() - Date.now()) > TIMESTAMP_TOLERANCE_MS)
      return invalid('isv.invalid-timestamp', `非法的时间戳参数 ${params.timestamp}`)
    // Certificate mode: the serial numbers must be those of the certificates Alipay issued to this app.
    if (params.app_cert_sn !== undefined || params.alipay_root_cert_sn !== undefined) {
      const certs = this.certs
      if (!certs || params.app_cert_sn !== alipayCertSn(certs.appCert)) return invalid('isv.app-cert-sn-invalid', `应用公钥证书序列号不匹配 ${params.app_cert_sn}`)
      if (params.alipay_root_cert_sn !== alipayRootCertSn(certs.alipayRootCert)) return invalid('isv.alipay-root-cert-sn-invalid', `支付宝根证书序列号不匹配 ${params.alipay_root_cert_sn}`)
    }
    const content = alipaySignContent(params)
    const ok = crypto.verify('RSA-SHA256', Buffer.from(content, 'utf8'), this.appKeys.publicKey, Buffer.from(params.sign, 'base64'))
    if (!ok) return invalid('isv.invalid-signature', `验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为：${content}`)
    return undefined
  }

  /**
   * `{"<method>_response":{…},"sign":"…"}`, the signature covering the exact JSON of the response
   * object; in certificate mode with `alipay_cert_sn` between the two, as the gateway answers.
   */
  private signedV2(method: string, payload: Record<string, unknown>, breakSignature = false, certMode = false): FakeResponse {
    const inner = JSON.stringify(payload)
    let sign = crypto.sign('RSA-SHA256', Buffer.from(inner, 'utf8'), this.alipayKeys.privateKey).toString('base64')
    if (breakSignature) sign = crypto.sign('RSA-SHA256', Buffer.from(inner, 'utf8'), this.foreign()).toString('base64')
    const key = `${method.replace(/\./g, '_')}_response`
    const certSn = certMode && this.certs ? `"alipay_cert_sn":"${alipayCertSn(this.certs.alipayPublicCert)}",` : ''
    return { status: 200, headers: { 'content-type': 'application/json;charset=utf-8' }, body: `{"${key}":${inner},${certSn}"sign":"${sign}"}` }
  }

  private pagePay(params: Record<string, string>, biz: Record<string, unknown>): FakeResponse {
    const invalid = (sub_code: string, sub_msg: string) => this.errorPage({ code: '40004', msg: 'Business Failed', sub_code, sub_msg })
    const outTradeNo = biz.out_trade_no
    const fen = parseYuan(biz.total_amount)
    if (biz.product_code !== 'FAST_INSTANT_TRADE_PAY') return invalid('ACQ.INVALID_PARAMETER', 'product_code 无效')
    if (typeof outTradeNo !== 'string' || !outTradeNo || outTradeNo.length > 64) return invalid('ACQ.INVALID_PARAMETER', 'out_trade_no 无效')
    if (fen === undefined) return invalid('ACQ.INVALID_PARAMETER', 'total_amount 无效')
    if (typeof biz.subject !== 'string' || !biz.subject || /[/=&]/.test(biz.subject))
      return invalid('ACQ.INVALID_PARAMETER', 'subject 不能包含 / = &')
    let timeExpire: Date | undefined
    if (biz.time_expire !== undefined) {
      timeExpire = parseBeijing(String(biz.time_expire))
      if (!timeExpire) return invalid('ACQ.INVALID_PARAMETER', 'time_expire 格式为 yyyy-MM-dd HH:mm:ss')
    }
    let t = this.trades.get(outTradeNo)
    if (t) {
      if (t.amountFen !== fen) return invalid('ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改')
      if (t.status === 'TRADE_SUCCESS' || t.status === 'TRADE_FINISHED') return invalid('ACQ.TRADE_HAS_SUCCESS', '交易已被支付')
      if (t.status === 'TRADE_CLOSED') return invalid('ACQ.TRADE_HAS_CLOSE', '交易已经关闭')
    } else {
      t = {
        outTradeNo,
        tradeNo: `${beijing(new Date()).replace(/\D/g, '').slice(0, 8)}22001${randomDigits(15)}`,
        amountFen: fen,
        subject: biz.subject,
        notifyUrl: params.notify_url,
        returnUrl: params.return_url,
        timeExpire,
        status: 'WAIT_BUYER_PAY',
        gmtCreate: new Date(),
        refunds: new Map(),
      }
      this.trades.set(outTradeNo, t)
    }
    const no = escapeHtml(outTradeNo)
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>支付宝收银台 (fake)</title></head><body>
<main><h1>支付宝收银台 (fake)</h1>
<p>订单 <output id="out_trade_no">${no}</output></p>
<p>商品 <output id="subject">${escapeHtml(t.subject)}</output></p>
<p>应付金额 ¥<output id="total_amount">${yuanText(t.amountFen)}</output></p>
<form method="post" action="/cashier/pay"><input type="hidden" name="out_trade_no" value="${no}"><button type="submit">Pay</button></form>
<form method="post" action="/cashier/cancel"><input type="hidden" name="out_trade_no" value="${no}"><button type="submit">Cancel</button></form>
</main></body></html>`,
    }
  }

  private errorPage(e: BizError): FakeResponse {
    return {
      status: 400,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html><head><meta charset="utf-8"><title>支付宝 - 错误</title></head><body><h1>${escapeHtml(e.sub_code)}</h1><p>${escapeHtml(e.sub_msg)}</p></body></html>`,
    }
  }

  /** The cashier's buttons: Pay notifies (awaiting delivery) and 302s to return_url with signed sync params. */
  private async cashierAction(req: FakeRequest): Promise<FakeResponse> {
    const form = new URLSearchParams(req.body.toString('utf8'))
    const t = this.trades.get(form.get('out_trade_no') ?? '')
    if (!t || t.status !== 'WAIT_BUYER_PAY')
      return this.errorPage({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' })
    if (req.url.pathname === '/cashier/cancel') {
      t.status = 'TRADE_CLOSED'
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><p>交易已关闭</p>' }
    }
    await this.pay(t.outTradeNo)
    if (!t.returnUrl) return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><p>支付成功</p>' }
    const sync: Record<string, string> = {
      app_id: this.appId,
      method: 'alipay.trade.page.pay.return',
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      timestamp: beijing(new Date()),
      out_trade_no: t.outTradeNo,
      trade_no: t.tradeNo,
      total_amount: yuanText(t.amountFen),
      seller_id: this.sellerId,
    }
    sync.sign = crypto
      .sign('RSA-SHA256', Buffer.from(alipaySignContent(sync, ['sign', 'sign_type']), 'utf8'), this.alipayKeys.privateKey)
      .toString('base64')
    const target = new URL(t.returnUrl)
    for (const [k, v] of Object.entries(sync)) target.searchParams.set(k, v)
    return { status: 302, headers: { location: target.toString() } }
  }

  // ——— business APIs, shared by v2 and v3 ———

  private business(method: string, biz: Record<string, unknown>): BizResult {
    switch (method) {
      case 'alipay.trade.query':
        return this.tradeQuery(biz)
      case 'alipay.trade.refund':
        return this.tradeRefund(biz)
      case 'alipay.trade.fastpay.refund.query':
        return this.refundQuery(biz)
      case 'alipay.trade.close':
        return this.tradeClose(biz)
      case 'alipay.fund.trans.uni.transfer':
        return this.transfer(biz)
      case 'alipay.fund.trans.common.query':
        return this.transferQuery(biz)
      default:
        return bizError('isv.invalid-method', `不存在的方法名 ${method}`, '40002', 'Invalid Arguments')
    }
  }

  private findTrade(biz: Record<string, unknown>): AlipayFakeTrade | undefined {
    // trade_no wins when both are given (INTEGRATIONS §1.3).
    if (typeof biz.trade_no === 'string') return [...this.trades.values()].find((t) => t.tradeNo === biz.trade_no)
    return typeof biz.out_trade_no === 'string' ? this.trades.get(biz.out_trade_no) : undefined
  }

  private tradeQuery(biz: Record<string, unknown>): BizResult {
    const t = this.findTrade(biz)
    if (!t) return bizError('ACQ.TRADE_NOT_EXIST', '交易不存在')
    const amount = yuanText(t.amountFen)
    const paid = t.status === 'TRADE_SUCCESS' || t.status === 'TRADE_FINISHED'
    return {
      ok: {
        trade_no: t.tradeNo,
        out_trade_no: t.outTradeNo,
        buyer_logon_id: 'buy***@example.com',
        trade_status: t.status,
        total_amount: amount,
        buyer_pay_amount: paid ? amount : '0.00',
        receipt_amount: paid ? amount : '0.00',
        point_amount: '0.00',
        invoice_amount: paid ? amount : '0.00',
        ...(t.gmtPayment ? { send_pay_date: beijing(t.gmtPayment) } : {}),
        buyer_user_id: '2088102177846880',
      },
    }
  }

  private refundedFen(t: AlipayFakeTrade) {
    let sum = 0
    for (const r of t.refunds.values()) sum += r.amountFen
    return sum
  }

  private tradeRefund(biz: Record<string, unknown>): BizResult {
    const t = this.findTrade(biz)
    if (!t) return bizError('ACQ.TRADE_NOT_EXIST', '交易不存在')
    const fen = parseYuan(biz.refund_amount)
    if (fen === undefined) return bizError('ACQ.INVALID_PARAMETER', 'refund_amount 无效', '40002', 'Invalid Arguments')
    const outRequestNo = typeof biz.out_request_no === 'string' && biz.out_request_no ? biz.out_request_no : t.outTradeNo
    const existing = t.refunds.get(outRequestNo)
    const answer = (fundChange: 'Y' | 'N') => ({
      ok: {
        trade_no: t.tradeNo,
        out_trade_no: t.outTradeNo,
        buyer_logon_id: 'buy***@example.com',
        fund_change: fundChange,
        refund_fee: yuanText(this.refundedFen(t)),
        gmt_refund_pay: beijing(new Date()),
      },
    })
    if (existing) {
      // A repeated request: same answer, no money moves (hence fund_change N).
      if (existing.amountFen !== fen) return bizError('ACQ.DISCORDANT_REPEAT_REQUEST', '请求信息不一致')
      return answer('N')
    }
    if (t.status === 'WAIT_BUYER_PAY') return bizError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    if (t.status === 'TRADE_FINISHED') return bizError('ACQ.TRADE_HAS_FINISHED', '交易已完结')
    if (t.status === 'TRADE_CLOSED' && this.refundedFen(t) === 0) return bizError('ACQ.TRADE_HAS_CLOSE', '交易已经关闭')
    if (fen > t.amountFen - this.refundedFen(t)) return bizError('ACQ.REASON_TRADE_REFUND_FEE_ERR', '退款金额超限')
    if (fen > this.sellerBalanceFen) return bizError('ACQ.SELLER_BALANCE_NOT_ENOUGH', '卖家余额不足')
    this.sellerBalanceFen -= fen
    t.refunds.set(outRequestNo, { outRequestNo, amountFen: fen, settled: this.refundMode === 'instant', at: new Date() })
    if (this.refundedFen(t) === t.amountFen) t.status = 'TRADE_CLOSED'
    return answer(this.refundMode === 'instant' ? 'Y' : 'N')
  }

  private refundQuery(biz: Record<string, unknown>): BizResult {
    const t = this.findTrade(biz)
    if (!t) return bizError('ACQ.TRADE_NOT_EXIST', '交易不存在')
    const outRequestNo = typeof biz.out_request_no === 'string' ? biz.out_request_no : t.outTradeNo
    const r = t.refunds.get(outRequestNo)
    // An unknown refund is a success without refund fields, as on the real gateway.
    if (!r) return { ok: { trade_no: t.tradeNo, out_trade_no: t.outTradeNo } }
    return {
      ok: {
        trade_no: t.tradeNo,
        out_trade_no: t.outTradeNo,
        out_request_no: r.outRequestNo,
        total_amount: yuanText(t.amountFen),
        refund_amount: yuanText(r.amountFen),
        ...(r.settled ? { refund_status: 'REFUND_SUCCESS', gmt_refund_pay: beijing(r.at) } : {}),
      },
    }
  }

  private tradeClose(biz: Record<string, unknown>): BizResult {
    const t = this.findTrade(biz)
    if (!t) return bizError('ACQ.TRADE_NOT_EXIST', '交易不存在')
    if (t.status !== 'WAIT_BUYER_PAY') return bizError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    t.status = 'TRADE_CLOSED'
    return { ok: { trade_no: t.tradeNo, out_trade_no: t.outTradeNo } }
  }

  // ——— payouts (INTEGRATIONS §1.3 "Payout") ———

  private transferAnswer(t: AlipayFakeTransfer): BizResult {
    return { ok: { out_biz_no: t.outBizNo, order_id: t.orderId, pay_fund_order_id: t.payFundOrderId, status: t.status, trans_date: beijing(t.transDate) } }
  }

  private transfer(biz: Record<string, unknown>): BizResult {
    const invalid = (sub_msg: string) => bizError('INVALID_PARAMETER', sub_msg, '40004')
    const outBizNo = biz.out_biz_no
    const fen = parseYuan(biz.trans_amount)
    const payee = (biz.payee_info ?? {}) as Record<string, unknown>
    if (typeof outBizNo !== 'string' || !outBizNo || outBizNo.length > 64) return invalid('out_biz_no 无效')
    if (biz.product_code !== 'TRANS_ACCOUNT_NO_PWD') return invalid('product_code 无效')
    if (biz.biz_scene !== 'DIRECT_TRANSFER') return invalid('biz_scene 无效')
    // TRANS_ACCOUNT_NO_PWD moves 0.1 – 100000000 yuan.
    if (fen === undefined || fen < 10) return bizError('EXCEED_LIMIT_SM_MIN_AMOUNT', '单笔最低转账金额0.1元', '40004')
    if (typeof biz.order_title !== 'string' || !biz.order_title) return invalid('order_title 不能为空')
    const identity = typeof payee.identity === 'string' ? payee.identity : ''
    const identityType = payee.identity_type
    const name = typeof payee.name === 'string' && payee.name ? payee.name : undefined
    if (!identity || (identityType !== 'ALIPAY_USER_ID' && identityType !== 'ALIPAY_LOGON_ID')) return invalid('payee_info 无效')
    if (identityType === 'ALIPAY_LOGON_ID' && !name) return invalid('ALIPAY_LOGON_ID 需要收款方真实姓名 name')
    const existing = this.transfers.get(outBizNo)
    if (existing) {
      // The same out_biz_no again: the first transfer, if the request is the same one (idempotency key).
      if (existing.amountFen !== fen || existing.identity !== identity) return bizError('PAYMENT_INFO_INCONSISTENCY', '两次请求商户单号一样，但是参数不一致')
      return this.transferAnswer(existing)
    }
    const realName = this.payees.get(identity)
    if (realName === undefined) return bizError('PAYEE_NOT_EXIST', '收款账号不存在')
    if (name !== undefined && name !== realName) return bizError('PAYEE_USERINFO_ERROR', '收款方姓名或信息不匹配')
    if (fen > this.sellerBalanceFen) return bizError('PAYER_BALANCE_NOT_ENOUGH', '付款方余额不足')
    this.sellerBalanceFen -= fen
    const day = beijing(new Date()).replace(/\D/g, '').slice(0, 8)
    const t: AlipayFakeTransfer = {
      outBizNo,
      orderId: `${day}110070000${randomDigits(13)}`,
      payFundOrderId: `${day}110070001${randomDigits(13)}`,
      amountFen: fen,
      identity,
      identityType,
      name,
      title: biz.order_title,
      status: this.transferMode === 'instant' ? 'SUCCESS' : 'DEALING',
      transDate: new Date(),
    }
    this.transfers.set(outBizNo, t)
    return this.transferAnswer(t)
  }

  private transferQuery(biz: Record<string, unknown>): BizResult {
    const t =
      typeof biz.order_id === 'string'
        ? [...this.transfers.values()].find((x) => x.orderId === biz.order_id)
        : typeof biz.out_biz_no === 'string'
          ? this.transfers.get(biz.out_biz_no)
          : undefined
    if (!t) return bizError('ORDER_NOT_EXIST', '转账订单不存在')
    return {
      ok: {
        order_id: t.orderId,
        pay_fund_order_id: t.payFundOrderId,
        out_biz_no: t.outBizNo,
        trans_amount: yuanText(t.amountFen),
        status: t.status,
        ...(t.status === 'SUCCESS' ? { pay_date: beijing(t.transDate) } : {}),
      },
    }
  }

  // ——— OpenAPI v3 (INTEGRATIONS §1.2 "v3 request/response") ———

  private async gatewayV3(req: FakeRequest): Promise<FakeResponse> {
    const body = req.body.toString('utf8')
    const auth = String(req.headers.authorization ?? '')
    const m = /^ALIPAY-SHA256withRSA (.*),sign=([A-Za-z0-9+/=]+)$/.exec(auth)
    const authFields = Object.fromEntries((m?.[1] ?? '').split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]))
    const token = req.headers['alipay-app-auth-token']
    const signed = `${m?.[1]}\n${req.method}\n${req.url.pathname}${req.url.search}\n${body}\n${token ? `${String(token)}\n` : ''}`
    const ok =
      !!m &&
      authFields.app_id === this.appId &&
      Math.abs(Number(authFields.timestamp) - Date.now()) <= TIMESTAMP_TOLERANCE_MS &&
      crypto.verify('RSA-SHA256', Buffer.from(signed, 'utf8'), this.appKeys.publicKey, Buffer.from(m[2]!, 'base64'))
    if (!ok) return this.signedV3(401, { code: 'invalid-signature', message: '验签出错' })
    let biz: Record<string, unknown>
    try {
      biz = body ? (JSON.parse(body) as Record<string, unknown>) : {}
    } catch {
      return this.signedV3(400, { code: 'invalid-parameter', message: 'body 不是合法 JSON' })
    }
    const method = {
      '/v3/alipay/trade/query': 'alipay.trade.query',
      '/v3/alipay/trade/refund': 'alipay.trade.refund',
      '/v3/alipay/trade/fastpay/refund/query': 'alipay.trade.fastpay.refund.query',
      '/v3/alipay/trade/close': 'alipay.trade.close',
    }[req.url.pathname]
    if (req.method !== 'POST' || !method) return this.signedV3(404, { code: 'not-found', message: '接口不存在' })
    this.calls.push({ method, params: { biz_content: body } })
    const result = this.business(method, biz)
    // [guess] v3 business errors: HTTP 400 with the sub code as `code`.
    return 'ok' in result ? this.signedV3(200, result.ok) : this.signedV3(400, { code: result.error.sub_code, message: result.error.sub_msg })
  }

  private signedV3(status: number, payload: unknown): FakeResponse {
    const body = JSON.stringify(payload)
    const ts = String(Date.now())
    const nonce = crypto.randomUUID()
    const signature = crypto.sign('RSA-SHA256', Buffer.from(`${ts}\n${nonce}\n${body}\n`, 'utf8'), this.alipayKeys.privateKey).toString('base64')
    return {
      status,
      headers: {
        'content-type': 'application/json',
        'alipay-timestamp': ts,
        'alipay-nonce': nonce,
        'alipay-signature': signature,
        'alipay-trace-id': crypto.randomUUID(),
      },
      body,
    }
  }
}

function applyChanges(fields: Record<string, string>, changes?: Record<string, string | null>): Record<string, string> {
  if (!changes) return fields
  const out = { ...fields }
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete out[k]
    else out[k] = v
  }
  return out
}

function json(payload: unknown): FakeResponse {
  return { status: 200, headers: { 'content-type': 'application/json;charset=utf-8' }, body: JSON.stringify(payload) }
}
