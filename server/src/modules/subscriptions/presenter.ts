import { type Subscription, subscriptionTag } from '#contract/subscriptions.ts'
import type { SubscriptionListRow } from './repository.ts'

/** A subscription with its SPEC §4 tag at `now`. */
export function presentSubscription(r: SubscriptionListRow, now: Date): Subscription {
  return {
    id: r.sub.id,
    user_name: r.userName,
    package_id: r.sub.packageId,
    product_name: r.packageName,
    download_limit: r.downloadLimit,
    status: subscriptionTag(r.sub.expiresAt, now),
    created_at: r.sub.createdAt.toISOString(),
    starts_at: r.sub.startsAt.toISOString(),
    expires_at: r.sub.expiresAt.toISOString(),
  }
}
