import crypto from 'node:crypto'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  NotificationRejected,
  type PaymentNotification,
  type PaymentProvider,
  type PaymentQuery,
  type RefundInput,
  type RefundQueryState,
  type RefundResult,
} from './types.ts'

const SKEW_MS = 300_000

type Trade = { orderNo: string; amount: number; tradeNo: string; state: 'PAID' | 'CLOSED' | 'REFUNDED' }

/**
 * The built-in gateway used when no Alipay / WeChat Pay credentials are configured (DESIGN §3): a
 * checkout page served by the API (routes/api/payments) that pays or cancels, then sends an
 * HMAC-signed notify to the same notify endpoint path the real gateways use.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const
  /** The sandbox's own records of paid/closed trades (it plays the gateway, so it keeps state). */
  private trades = new Map<string, Trade>()
  /** Refund numbers it has refunded (each at once). */
  private refunds = new Set<string>()

  constructor(
    private readonly key: string,
    private readonly apiPublicUrl: string,
  ) {}

  sign(payload: string): string {
    return crypto.createHmac('sha256', this.key).update(payload).digest('base64url')
  }

  private checkoutSignature(p: { orderNo: string; amount: number; method: string; returnUrl: string }) {
    return this.sign(`checkout\n${p.orderNo}\n${p.amount}\n${p.method}\n${p.returnUrl}`)
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult> {
    const params = new URLSearchParams({
      orderNo: input.orderNo,
      amount: String(input.amount),
      method: input.method,
      subject: input.subject,
      returnUrl: input.returnUrl,
      notifyUrl: input.notifyUrl,
    })
    params.set('sig', this.checkoutSignature({ orderNo: input.orderNo, amount: input.amount, method: input.method, returnUrl: input.returnUrl }))
    const url = `${this.apiPublicUrl}/api/payments/sandbox/checkout?${params}`
    return input.method === 'WeChat' ? { qrCode: url, payUrl: url } : { payUrl: url }
  }

  /** Checks a checkout link's signature (the amount and return URL cannot be changed by the payer). */
  verifyCheckout(p: { orderNo: string; amount: number; method: string; returnUrl: string; sig: string }): boolean {
    const expected = Buffer.from(this.checkoutSignature(p))
    const got = Buffer.from(p.sig)
    return expected.length === got.length && crypto.timingSafeEqual(expected, got)
  }

  /** What the checkout page's Pay / Cancel buttons do: record the trade, build the signed notify. */
  settle(orderNo: string, amount: number, paid: boolean): { body: string; headers: Record<string, string> } {
    const existing = this.trades.get(orderNo)
    const tradeNo = existing?.tradeNo ?? `SBX${Date.now()}${crypto.randomInt(100000, 999999)}`
    this.trades.set(orderNo, { orderNo, amount, tradeNo, state: paid ? 'PAID' : existing?.state === 'PAID' ? 'PAID' : 'CLOSED' })
    const body = JSON.stringify({
      event_id: crypto.randomUUID(),
      order_no: orderNo,
      trade_no: tradeNo,
      amount_fen: amount,
      state: paid ? 'PAID' : 'CLOSED',
    })
    const ts = String(Date.now())
    return { body, headers: { 'content-type': 'application/json', 'x-sandbox-timestamp': ts, 'x-sandbox-signature': this.sign(`${ts}\n${body}`) } }
  }

  async parseNotification(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<PaymentNotification> {
    const ts = String(req.headers['x-sandbox-timestamp'] ?? '')
    const sig = String(req.headers['x-sandbox-signature'] ?? '')
    if (!ts || !sig || Math.abs(Date.now() - Number(ts)) > SKEW_MS) throw new NotificationRejected('sandbox: missing or stale timestamp')
    const expected = Buffer.from(this.sign(`${ts}\n${req.rawBody}`))
    const got = Buffer.from(sig)
    if (expected.length !== got.length || !crypto.timingSafeEqual(expected, got)) throw new NotificationRejected('sandbox: bad signature')
    let b: { event_id?: unknown; order_no?: unknown; trade_no?: unknown; amount_fen?: unknown; state?: unknown }
    try {
      b = JSON.parse(req.rawBody)
    } catch {
      throw new NotificationRejected('sandbox: body is not JSON')
    }
    if (typeof b.event_id !== 'string' || typeof b.order_no !== 'string' || typeof b.trade_no !== 'string' || typeof b.amount_fen !== 'number') {
      throw new NotificationRejected('sandbox: missing fields')
    }
    return { eventKey: b.event_id, orderNo: b.order_no, tradeNo: b.trade_no, amount: b.amount_fen, state: b.state === 'PAID' ? 'PAID' : b.state === 'CLOSED' ? 'CLOSED' : 'OTHER' }
  }

  ack(ok: boolean) {
    return { status: ok ? 200 : 400, contentType: 'text/plain', body: ok ? 'success' : 'fail' }
  }

  async queryPayment(orderNo: string): Promise<PaymentQuery> {
    const t = this.trades.get(orderNo)
    if (!t) return { state: 'NOT_FOUND' }
    return { state: t.state === 'PAID' ? 'PAID' : 'CLOSED', tradeNo: t.tradeNo, amount: t.amount }
  }

  /** The sandbox refunds at once. */
  async refund(input: RefundInput): Promise<RefundResult> {
    const t = this.trades.get(input.orderNo)
    if (t) t.state = 'REFUNDED'
    this.refunds.add(`${input.orderNo}\n${input.refundNo}`)
    return { state: 'SUCCESS' }
  }

  /** What it refunded since it started (it keeps no records across restarts: then NOT_FOUND, and refunded again). */
  async queryRefund(input: { orderNo: string; refundNo: string }): Promise<RefundQueryState> {
    return this.refunds.has(`${input.orderNo}\n${input.refundNo}`) ? 'SUCCESS' : 'NOT_FOUND'
  }
}
