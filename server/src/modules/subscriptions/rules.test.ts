import { describe, expect, it } from 'vitest'
import { dailyAllowance, pickSubscription, remainingOf, unlockRefusal } from './rules.ts'

describe('dailyAllowance (decision 054)', () => {
  it('the highest limit of the open subscriptions applies; they do not add up', () => {
    expect(dailyAllowance([3, 10, 5], 4)).toEqual({ daily_limit: 10, used_today: 4, remaining_today: 6 })
  })
  it('never below zero, and nothing without an open subscription', () => {
    expect(dailyAllowance([3], 5)).toEqual({ daily_limit: 3, used_today: 5, remaining_today: 0 })
    expect(dailyAllowance([], 2)).toEqual({ daily_limit: 0, used_today: 2, remaining_today: 0 })
  })
})

describe('remainingOf', () => {
  it('an open subscription: its own limit less today; an expired one: nothing', () => {
    expect(remainingOf({ downloadLimit: 3, opened: true }, 1)).toBe(2)
    expect(remainingOf({ downloadLimit: 3, opened: true }, 4)).toBe(0)
    expect(remainingOf({ downloadLimit: 3, opened: false }, 0)).toBe(0)
  })
})

describe('pickSubscription', () => {
  const at = (d: string) => new Date(`${d}T00:00:00Z`)
  it('highest limit first, then the latest expiry, then the oldest', () => {
    const subs = [
      { id: 1, downloadLimit: 3, expiresAt: at('2027-01-01') },
      { id: 2, downloadLimit: 5, expiresAt: at('2026-12-01') },
      { id: 3, downloadLimit: 5, expiresAt: at('2026-12-20') },
      { id: 4, downloadLimit: 5, expiresAt: at('2026-12-20') },
    ]
    expect(pickSubscription(subs)?.id).toBe(3)
    expect(pickSubscription([])).toBeUndefined()
  })
})

describe('unlockRefusal', () => {
  const ok = { share: { userId: 7, status: 'approved', subscriptionStatus: 'open' as const, deletedAt: null }, seller: { isBanned: 0 } }
  it('a share for sale and open to subscribers, of someone else: allowed', () => {
    expect(unlockRefusal(ok, 8)).toBeNull()
  })
  it('refuses the own share, a share not for sale, and one closed to subscribers', () => {
    expect(unlockRefusal(ok, 7)).toBe('orders.ownShare')
    for (const status of ['under_review', 'reported_invalid', 'violation']) expect(unlockRefusal({ ...ok, share: { ...ok.share, status } }, 8)).toBe('shares.notForSale')
    expect(unlockRefusal({ ...ok, share: { ...ok.share, deletedAt: new Date() } }, 8)).toBe('shares.notForSale')
    expect(unlockRefusal({ ...ok, seller: { isBanned: 1 } }, 8)).toBe('shares.notForSale')
    expect(unlockRefusal({ ...ok, share: { ...ok.share, subscriptionStatus: 'close' } }, 8)).toBe('subscriptions.notOpenToSubscribers')
    expect(unlockRefusal({ ...ok, share: { ...ok.share, linkStoppedAt: new Date() } }, 8)).toBe('shares.linkBeingFixed')
  })
})
