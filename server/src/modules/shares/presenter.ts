import type { OwnShare, PublicShare } from '#contract/shares.ts'
import { fenToYuan } from '#contract/money.ts'
import type { LinkSummary } from '#contract/links.ts'
import type { linkStates, shares, users } from '../../db/schema/index.ts'
import type { ContentCipher } from './content-crypto.ts'

export type ShareRow = typeof shares.$inferSelect
export type SellerRow = Pick<typeof users.$inferSelect, 'userName' | 'isBanned'>

/** SPEC §3 Share without content. `for_sale`: approved, not deleted, seller not banned, its link not stopped (issue 25). */
export function presentShare(s: ShareRow, seller: SellerRow): PublicShare {
  return {
    id: s.id,
    unicode: s.unicode,
    title: s.title,
    type: s.type,
    price: fenToYuan(s.priceFen),
    user_name: seller.userName,
    visit_count: s.visitCount,
    purchase_count: s.purchaseCount,
    status: s.status,
    subscription_status: s.subscriptionStatus,
    created_at: s.createdAt.toISOString(),
    for_sale: s.status === 'approved' && !s.deletedAt && seller.isBanned !== 1 && !s.linkStoppedAt,
    ...(s.linkStoppedAt ? { link_fixing: true } : {}),
  }
}

/** Adds the decrypted content, for callers who may read it (owner, admin, a buyer of a completed order). */
export function withContent<P extends PublicShare>(p: P, s: ShareRow, cipher: ContentCipher): P & Pick<OwnShare, 'content' | 'extraction_code'> {
  return { ...p, content: cipher.decrypt(s.contentEnc), extraction_code: s.extractionCodeEnc ? cipher.decrypt(s.extractionCodeEnc) : null }
}

/** Where a share's link stands (issue 25; the rows are modules/linkcheck's). */
export function presentLinkSummary(s: typeof linkStates.$inferSelect): LinkSummary {
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  return { state: s.state, reason: s.reason, checked_at: iso(s.lastCheckedAt), dead_streak: s.deadStreak, stopped_at: iso(s.stoppedAt) }
}
