import { describe, expect, it } from 'vitest'
import { ORDER_NO_PATTERN } from '#contract/orders.ts'
import { buyerProof, honoursPayment, newBuyerKey, newOrderNo, ORDER_TTL_MS, platformFee, refundNoFor, refundState, revealKind } from './rules.ts'

describe('order numbers', () => {
  it('are PS + the Asia/Shanghai time to the second + 12 random digits, and match the contract pattern', () => {
    const no = newOrderNo(new Date('2026-11-22T16:30:05Z'))
    expect(no).toMatch(ORDER_NO_PATTERN)
    expect(no.slice(0, 16)).toBe('PS20261123003005')
    expect(no.length).toBeLessThanOrEqual(32)
  })
  it('sort by time as text and do not repeat', () => {
    const early = newOrderNo(new Date('2026-11-18T01:00:00Z'))
    const late = newOrderNo(new Date('2026-11-23T01:00:00Z'))
    expect([late, early].sort()).toEqual([early, late])
    const many = new Set(Array.from({ length: 1000 }, () => newOrderNo(new Date('2026-11-23T01:00:00Z'))))
    expect(many.size).toBe(1000)
  })
  it('refunds under one number per order', () => {
    expect(refundNoFor('PS20261123003005123456789012')).toBe('RPS20261123003005123456789012')
  })
})

describe('refund state (decision 057)', () => {
  const at = new Date('2026-11-23T01:00:00Z')
  it('none unless Refund; done once confirmed (even after a failure); failed on a final failure; pending otherwise', () => {
    for (const paymentStatus of ['Pending', 'Completed', 'Failed'] as const) expect(refundState({ paymentStatus, refundedAt: at, refundFailure: null })).toBeNull()
    expect(refundState({ paymentStatus: 'Refund', refundedAt: null, refundFailure: null })).toBe('pending')
    expect(refundState({ paymentStatus: 'Refund', refundedAt: null, refundFailure: 'ABNORMAL' })).toBe('failed')
    expect(refundState({ paymentStatus: 'Refund', refundedAt: at, refundFailure: 'ABNORMAL' })).toBe('done')
    expect(refundState({ paymentStatus: 'Refund', refundedAt: at, refundFailure: null })).toBe('done')
  })
})

describe('order lifetime', () => {
  it('a pending order can be paid for 30 minutes', () => {
    expect(ORDER_TTL_MS).toBe(30 * 60 * 1000)
  })
})

describe('platform fee', () => {
  it('is the basis points of the amount, rounded half up', () => {
    expect(platformFee(2000, 500)).toBe(100)
    expect(platformFee(1234, 500)).toBe(62) // 61.7
    expect(platformFee(10, 500)).toBe(1) // 0.5 rounds up
    expect(platformFee(9, 500)).toBe(0) // 0.45 rounds down
    expect(platformFee(1, 0)).toBe(0)
  })
  it('never exceeds the amount', () => {
    expect(platformFee(100, 10000)).toBe(100)
    expect(platformFee(1, 10000)).toBe(1)
  })
})

describe('a payment arriving for a share', () => {
  it('is honoured while the share is approved and its seller not banned', () => {
    expect(honoursPayment({ status: 'approved', sellerBanned: 0 })).toBe(true)
  })
  it('is refunded once the share is taken down, banned, back under review, or the seller banned, or the share is gone', () => {
    for (const status of ['violation', 'reported_invalid', 'under_review']) expect(honoursPayment({ status, sellerBanned: 0 }), status).toBe(false)
    expect(honoursPayment({ status: 'approved', sellerBanned: 1 })).toBe(false)
    expect(honoursPayment(undefined)).toBe(false)
  })
})

describe('who is an order\'s buyer (decision 102)', () => {
  const key = newBuyerKey()
  const other = newBuyerKey()
  const SELLER = 7
  const BUYER = 8
  const visitors = { buyerId: null, sellerId: SELLER, buyerKeyHash: key.hash }
  const members = { buyerId: BUYER, sellerId: SELLER, buyerKeyHash: key.hash }
  const legacy = { buyerId: null, sellerId: SELLER, buyerKeyHash: null }

  it('a buyer key is 128 random bits in base64url, stored only as a hash', () => {
    expect(key.key).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(Buffer.from(key.key, 'base64url')).toHaveLength(16)
    expect(key.hash).not.toContain(key.key)
    expect(new Set(Array.from({ length: 1000 }, () => newBuyerKey().key)).size).toBe(1000)
  })

  it('is the buyer\'s account, or the browser holding the order\'s key; never the seller, never the number alone', () => {
    expect(buyerProof(members, { userId: BUYER, buyerKey: null })).toBe('account')
    expect(buyerProof(visitors, { userId: null, buyerKey: key.key })).toBe('browser')
    // Signed in to another account in the browser that paid: still that browser.
    expect(buyerProof(visitors, { userId: 99, buyerKey: key.key })).toBe('browser')
    expect(buyerProof(visitors, { userId: null, buyerKey: other.key })).toBeNull()
    expect(buyerProof(visitors, { userId: null, buyerKey: null })).toBeNull()
    expect(buyerProof(members, { userId: 99, buyerKey: null })).toBeNull()
    // The seller's token with the buyer's own key is still the seller.
    expect(buyerProof(visitors, { userId: SELLER, buyerKey: key.key })).toBeNull()
    expect(buyerProof(members, { userId: SELLER, buyerKey: key.key })).toBeNull()
    // An order from before buyer keys: only an account proves anything.
    expect(buyerProof(legacy, { userId: null, buyerKey: key.key })).toBeNull()
  })

  it('names how content is shown; only the buyer\'s reveals are the buyer\'s', () => {
    expect(revealKind(members, { id: BUYER, role: 'user' }, null)).toBe('buyer_account')
    expect(revealKind(visitors, null, key.key)).toBe('buyer_browser')
    expect(revealKind(visitors, { id: SELLER, role: 'user' }, key.key)).toBe('owner')
    expect(revealKind(visitors, { id: 1, role: 'admin' }, null)).toBe('admin')
    expect(revealKind(visitors, { id: 99, role: 'user' }, null)).toBe('order_number')
    expect(revealKind(visitors, null, other.key)).toBe('order_number')
  })
})
