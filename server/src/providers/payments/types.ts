import type { Fen } from '#contract/money.ts'
import type { PaymentMethod } from '#contract/orders.ts'

export type PaymentProviderName = 'alipay' | 'wechat' | 'sandbox'
export type { PaymentMethod }

export type CreatePaymentInput = {
  /** Our order number: out_trade_no at the provider (≤ 32 chars, [0-9A-Za-z]). */
  orderNo: string
  amount: Fen
  /** Shown on the payer's bill; no `/ = &` for Alipay. */
  subject: string
  method: PaymentMethod
  notifyUrl: string
  /** Where the browser goes after paying (Alipay return_url; sandbox). */
  returnUrl: string
  expiresAt: Date
  clientIp?: string
}

/** Alipay → a pay page to redirect to; WeChat Native → the code_url to render as a QR code. */
export type CreatePaymentResult = { payUrl?: string; qrCode?: string }

/** A verified notification. `eventKey` makes replays no-ops (Alipay notify_id, WeChat notification id). */
export type PaymentNotification = {
  eventKey: string
  orderNo: string
  tradeNo: string
  state: 'PAID' | 'CLOSED' | 'OTHER'
  amount: Fen
}

export type PaymentQuery = { state: 'PAID' | 'PENDING' | 'CLOSED' | 'NOT_FOUND'; tradeNo?: string; amount?: Fen }

export type RefundInput = {
  orderNo: string
  refundNo: string
  amount: Fen
  totalAmount: Fen
  reason?: string
  /** Where the gateway reports the refund's outcome (WeChat Pay; the others answer at once). */
  notifyUrl?: string
}

/** A refund the gateway accepted: done (`SUCCESS`), or still on its way to the payer (`PROCESSING`). */
export type RefundResult = { state: 'SUCCESS' | 'PROCESSING' }

/** Where a refund stands at the gateway; `CLOSED` and `ABNORMAL` are final failures a person must handle. */
export type RefundQueryState = 'SUCCESS' | 'PROCESSING' | 'CLOSED' | 'ABNORMAL' | 'NOT_FOUND'

/** A verified refund notification (WeChat Pay REFUND.*). `eventKey` makes replays no-ops. */
export type RefundNotification = {
  eventKey: string
  orderNo: string
  refundNo: string
  state: 'SUCCESS' | 'CLOSED' | 'ABNORMAL'
  /** The amount refunded, in fen. */
  amount: Fen
}

/** Raised by parseNotification for anything forged, tampered, replayed outside the window or foreign. */
export class NotificationRejected extends Error {}
/** Raised when a provider call fails; `retryable` when the outcome is unknown (timeout, 5xx, SYSTEM_ERROR). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: string = 'PROVIDER_ERROR',
    readonly retryable = false,
  ) {
    super(message)
  }
}

/**
 * One payment gateway (DESIGN §3 Payment providers; research/INTEGRATIONS.md §8). Implementations:
 * AlipayProvider (alipay-sdk), WechatPayProvider (API v3), SandboxProvider (our own checkout page).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>
  /** Verifies signature, app id / merchant and decodes the body. Throws NotificationRejected. */
  parseNotification(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<PaymentNotification>
  /** The answer the gateway expects (Alipay: 200 text `success`/`fail`; WeChat: 204 / 4xx JSON). */
  ack(ok: boolean): { status: number; contentType: string; body: string }
  /** Asks the gateway about an order whose notify is late. */
  queryPayment(orderNo: string): Promise<PaymentQuery>
  /** Refunds a paid order in full; same refundNo on retry. Throws ProviderError (also for a refund the gateway refuses outright). */
  refund(input: RefundInput): Promise<RefundResult>
  /** Where a refund stands; NOT_FOUND when the gateway never received it (then it may be requested again, same refundNo). */
  queryRefund(input: { orderNo: string; refundNo: string }): Promise<RefundQueryState>
  /** Gateways that report refunds by notification (WeChat Pay): verifies and decodes one. Throws NotificationRejected. */
  parseRefundNotification?(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<RefundNotification>
}

/** A transfer to a seller's Alipay account (alipay.fund.trans.uni.transfer). */
export type TransferInput = {
  /** Our idempotency key at Alipay (out_biz_no): the same on every retry of one payout. */
  outBizNo: string
  amount: Fen
  /** An Alipay login (email / phone) with the account's real name, or a 2088… user id. */
  payee: { account: string; realName: string }
  /** Shown on the payee's bill. */
  title: string
  remark?: string
}

/**
 * What became of a transfer. FAILED is final (nothing moved; a retry with the same out_biz_no gets the
 * same answer); UNKNOWN (timeout, SYSTEM_ERROR, still processing) may still succeed: ask again, never
 * treat it as failed.
 */
export type TransferOutcome =
  | { state: 'SUCCESS'; orderId: string }
  | { state: 'FAILED'; code: string; message: string }
  | { state: 'UNKNOWN'; code: string; message: string }

/** Pays sellers out (DESIGN §3 Withdrawal: the optional automatic payout). Implemented for Alipay in certificate mode. */
export interface PayoutProvider {
  readonly name: 'alipay'
  transfer(input: TransferInput): Promise<TransferOutcome>
  /** The transfer of an out_biz_no as Alipay knows it; NOT_FOUND when it never reached Alipay. */
  queryTransfer(outBizNo: string): Promise<TransferOutcome | { state: 'NOT_FOUND' }>
}
