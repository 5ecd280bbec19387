import type { UnlockAllowance } from '#contract/subscriptions.ts'

/**
 * Today's free unlocks (decision 054): open subscriptions do not add up — the highest daily limit among
 * them applies, and every unlock of the day counts against it. Without an open subscription: none.
 */
export function dailyAllowance(openLimits: readonly number[], usedToday: number): UnlockAllowance {
  const limit = openLimits.length ? Math.max(...openLimits) : 0
  return { daily_limit: limit, used_today: usedToday, remaining_today: Math.max(0, limit - usedToday) }
}

/** What one subscription leaves today: its own limit less today's unlocks (an expired one, nothing). */
export const remainingOf = (sub: { downloadLimit: number; opened: boolean }, usedToday: number) => (sub.opened ? Math.max(0, sub.downloadLimit - usedToday) : 0)

/** The subscription an unlock is recorded against: the highest daily limit, then the latest expiry, then the oldest. */
export function pickSubscription<S extends { id: number; downloadLimit: number; expiresAt: Date }>(open: readonly S[]): S | undefined {
  return [...open].sort((a, b) => b.downloadLimit - a.downloadLimit || b.expiresAt.getTime() - a.expiresAt.getTime() || a.id - b.id)[0]
}

type UnlockTarget = {
  share: { userId: number; status: string; subscriptionStatus: 'open' | 'close'; deletedAt: Date | null; linkStoppedAt?: Date | null }
  seller: { isBanned: number }
}

/**
 * Why a share cannot be unlocked by `userId` (a msg key), or null when it can: it must be for sale
 * (approved, not deleted, seller not banned), open to subscribers, and not the caller's own.
 */
export function unlockRefusal(t: UnlockTarget, userId: number): string | null {
  if (t.share.userId === userId) return 'orders.ownShare'
  if (t.share.status !== 'approved' || t.share.deletedAt || t.seller.isBanned === 1) return 'shares.notForSale'
  if (t.share.subscriptionStatus !== 'open') return 'subscriptions.notOpenToSubscribers'
  // Its link is dead twice in a row (issue 25): nothing to hand out until the seller fixes it.
  if (t.share.linkStoppedAt) return 'shares.linkBeingFixed'
  return null
}
