import { describe, expect, it } from 'vitest'
import { formatYuanAmount, sameYuan } from './money.ts'
import { MASKED_ORDER_NO_PATTERN } from './codes.ts'
import {
  buyerKeySchema,
  maskOrderNo,
  ORDER_NO_PATTERN,
  orderCreateSchema,
  ordersApi,
  orderSchema,
  PAYMENT_METHODS,
  PAYMENT_STATUS_VIEW,
  PAYMENT_STATUSES,
  paymentMethodLabel,
  REVEAL_KINDS,
  revealCounts,
} from './orders.ts'

describe('contract/orders', () => {
  it('shows every payment status with a colour and its catalog key', () => {
    expect(Object.keys(PAYMENT_STATUS_VIEW).sort()).toEqual([...PAYMENT_STATUSES].sort())
    for (const s of PAYMENT_STATUSES) expect(PAYMENT_STATUS_VIEW[s].label).toBe(`orders.statuses.${s}`)
    expect(PAYMENT_METHODS.map(paymentMethodLabel)).toEqual(['orders.methods.Alipay', 'orders.methods.WeChat'])
  })

  it('takes only the payment methods it knows', () => {
    expect(orderCreateSchema.safeParse({ unicode: 'AbCd2345', paymentMethod: 'WeChat' }).success).toBe(true)
    const bad = orderCreateSchema.safeParse({ unicode: 'AbCd2345', paymentMethod: 'PayPal' })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.message).toBe('validation.paymentMethod')
  })

  it('describes every order endpoint with the path SPEC §7 names and who may call it', () => {
    expect(Object.values(ordersApi).map((e) => `${e.method} ${e.path} ${e.access}`)).toEqual([
      'POST /api/orders/create optional',
      'GET /api/orders/payment-status public',
      'GET /api/orders/list user',
      'GET /api/orders/seller/list user',
      'GET /api/orders/admin/list admin',
      'GET /api/orders/admin/reveals admin',
      'POST /api/orders/admin/refund admin',
    ])
  })

  it('masks an order number for the seller: the time and the last four digits, never a valid order number (decision 102)', () => {
    const masked = maskOrderNo('PS20261123090424123456789012')
    expect(masked).toBe('PS20261123090424********9012')
    expect(masked).toMatch(MASKED_ORDER_NO_PATTERN)
    expect(masked).not.toMatch(ORDER_NO_PATTERN)
    // A gateway's own trade number is not ours to mask.
    expect(maskOrderNo('2026112322001400001234567890')).toBe('2026112322001400001234567890')
  })

  it('takes a buyer key of 128 bits in base64url only, and counts only the buyer\'s own reveals', () => {
    expect(buyerKeySchema.safeParse('AbCdEfGhIjKlMnOpQrSt_-').success).toBe(true)
    for (const bad of ['', 'short', 'AbCdEfGhIjKlMnOpQrSt_-x', 'AbCdEfGhIjKlMnOpQrSt+/', 'PS20261123090424123456789012']) {
      expect(buyerKeySchema.safeParse(bad).success, bad).toBe(false)
    }
    expect(REVEAL_KINDS.filter(revealCounts)).toEqual(['buyer_account', 'buyer_browser'])
  })

  it('an order keeps its nullable fields as null', () => {
    const o = {
      id: 1,
      orderNo: 'PS20261123090424123456789012',
      alipayTradeNo: null,
      username: null,
      seller_name: 'demo_seller',
      paymentMethod: 'Alipay',
      unicode: null,
      amount: 9.9,
      fee: null,
      seller_income: null,
      product_name: 'x',
      product_type: 'channel',
      payment_status: 'Pending',
      created_at: '2026-11-23T01:04:24.000Z',
      paid_at: null,
      settle_at: null,
      settled: false,
      first_revealed_at: null,
      refund_state: null,
    }
    expect(orderSchema.parse(o)).toEqual(o)
    // Only the three refund states (decision 057).
    expect(orderSchema.safeParse({ ...o, payment_status: 'Refund', refund_state: 'processing' }).success).toBe(false)
    expect(orderSchema.parse({ ...o, payment_status: 'Refund', refund_state: 'failed' }).refund_state).toBe('failed')
  })
})

describe('contract/money: yuan amounts from the API', () => {
  it('formats a wire amount without floating noise', () => {
    expect(formatYuanAmount(9.9)).toBe('¥9.90')
    expect(formatYuanAmount(0.1 + 0.2)).toBe('¥0.30')
    expect(formatYuanAmount(10000)).toBe('¥10000.00')
    expect(formatYuanAmount(-1.5)).toBe('-¥1.50')
  })
  it('compares amounts in fen', () => {
    expect(sameYuan(0.1 + 0.2, 0.3)).toBe(true)
    expect(sameYuan(9.9, '9.90')).toBe(true)
    expect(sameYuan(9.9, 9.91)).toBe(false)
  })
})
