import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { PublicShare } from '#contract/shares.ts'
import { deadLinkNotice } from '../linkcheck/index.ts'
import { buyerProof, expirePendingOrders, reconcileWithGateway, recordReveal, settlePolicy } from '../orders/index.ts'
import { notFound } from '../../errors.ts'
import type { AuthUser } from '../../plugins/app/auth.ts'
import { presentShare, shareAndSellerByCode, shareAndSellerById, type ShareWithSeller, withContent } from '../shares/index.ts'
import { unlockAllowance, unlockRefusal } from '../subscriptions/index.ts'
import { presentOrderShare } from './presenter.ts'
import * as repo from './repository.ts'
import { shareAccess } from './rules.ts'

type ShareDeps = Pick<FastifyInstance, 'db' | 'cipher' | 'shareCache' | 'visits' | 'payments' | 'config' | 'clock' | 'orderEffects' | 'links'>

/** Where a lookup comes from, kept with each reveal (decision 102): the console's signed visitor id, the address. */
export type LookupFrom = { visitorId: string | null; ip: string }

/**
 * The public face of a row, built once per row object: the anonymous lookups get the same cached row
 * until it is reloaded, so their every poll does not rebuild it (decision 150). Never mutated: each
 * answer is a copy.
 */
const presentedRows = new WeakMap<ShareWithSeller, PublicShare>()
function presented(row: ShareWithSeller): PublicShare {
  let p = presentedRows.get(row)
  if (!p) {
    p = presentShare(row.share, row.seller)
    presentedRows.set(row, p)
  }
  return p
}

/**
 * A share by its code: never the content, unless the caller is its owner, an admin, or a signed-in
 * buyer with a completed order — who keep access after the seller deleted it. `visitorKey` counts the
 * view (not the owner's, not on a deleted share). A buyer's view is a reveal of its order (decision 102).
 */
export async function shareByCode(deps: ShareDeps, viewer: AuthUser | null, unicode: string, visitorKey: () => string, from: () => LookupFrom): Promise<PublicShare> {
  // Anonymous visitors read through the short-lived cache; signed-in callers read the database.
  const row = viewer ? await shareAndSellerByCode(deps.db, unicode, { withDeleted: true }) : await deps.shareCache.get(unicode)
  if (!row) throw notFound('shares.notFound')
  const isOwner = viewer?.id === row.share.userId
  const isAdmin = viewer?.role === 'admin'
  const bought = viewer && !isOwner && !isAdmin ? await repo.completedOrderOf(deps.db, row.share.id, viewer.id) : undefined
  const deleted = Boolean(row.share.deletedAt)
  const access = shareAccess({ isOwner, isAdmin, hasBought: Boolean(bought), deleted })
  if (access === 'none') throw notFound('shares.notFound')

  let out = presented(row)
  if (!isOwner && !deleted) {
    const unwritten = deps.visits.record(row.share.id, visitorKey())
    out = { ...out, visit_count: out.visit_count + unwritten }
  }
  if (access === 'public') {
    // A signed-in subscriber may unlock a share open to subscribers for free: tell them how many are left today.
    if (viewer && !isAdmin && !unlockRefusal(row, viewer.id)) {
      const allowance = await unlockAllowance(deps.db, viewer.id, deps.clock())
      if (allowance.daily_limit > 0) out = { ...out, free_unlocks_left: allowance.remaining_today }
    }
    return out
  }
  if (!bought) return withContent(out, row.share, deps.cipher)
  await recordReveal(deps.db, { order: bought, viewer, buyerKey: null, ...from(), now: deps.clock() })
  const notice = row.share.linkStoppedAt ? await deadLinkNotice(deps, { ...bought, paymentStatus: 'Completed' }, row.share.id) : null
  return { ...withContent(out, row.share, deps.cipher), buyer_order_no: bought.orderNo, ...(notice ? { dead_link: notice } : {}) }
}

/**
 * The share of an order by its number (SPEC §4): asks the gateway while the order is not settled, and
 * carries the content once it is Completed — also after the seller deleted the share. The number alone
 * still opens the content (decision 036: a buyer who lost its cookie types it on `/`), but each showing
 * is recorded and counts as the buyer's only for its account or the browser that paid — its buyer key
 * — and never for the seller's token (decision 102): the fraud refund trusts no one else's look.
 */
export async function shareByOrder(
  deps: ShareDeps,
  lookup: { orderNo: string; viewer: AuthUser | null; buyerKey: string | null; from: () => LookupFrom },
  log: FastifyBaseLogger,
): Promise<PublicShare> {
  const { orderNo } = lookup
  const order = await repo.orderByNo(deps.db, orderNo)
  if (!order || !order.shareId) throw notFound('orders.notFound')
  if (order.paymentStatus === 'Pending' && order.expiresAt < new Date()) await expirePendingOrders(deps.db)
  if (order.paymentStatus !== 'Completed' && order.paymentStatus !== 'Refund') {
    const provider = deps.payments.byName(order.provider)
    if (provider) {
      await reconcileWithGateway(deps.db, provider, orderNo, settlePolicy(deps)).catch((err) =>
        log.warn({ err, orderNo }, 'payment query failed'),
      )
    }
  }
  const fresh = await repo.orderById(deps.db, order.id)
  const row = await shareAndSellerById(deps.db, order.shareId)
  if (!fresh || !row) throw notFound('orders.notFound')
  // The buyer of a dead link (issue 25): when the seller was told, and its refund. Only to the buyer's proof.
  const isBuyer = buyerProof(fresh, { userId: lookup.viewer?.id ?? null, buyerKey: lookup.buyerKey }) !== null
  const notice = isBuyer && row.share.linkStoppedAt ? await deadLinkNotice(deps, fresh, row.share.id) : null
  const base = { ...presentOrderShare(row, fresh), ...(notice ? { dead_link: notice } : {}) }
  // A refunded order no longer reveals the content.
  if (fresh.paymentStatus !== 'Completed') return base
  await recordReveal(deps.db, { order: fresh, viewer: lookup.viewer, buyerKey: lookup.buyerKey, ...lookup.from(), now: deps.clock() })
  return withContent(base, row.share, deps.cipher)
}
