import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { PublicShare } from '#contract/shares.ts'
import { expirePendingOrders } from '../orders/service.ts'
import { reconcileWithGateway, settlePolicy } from '../payments/settlement.ts'
import { notFound } from '../../errors.ts'
import type { AuthUser } from '../../plugins/app/auth.ts'
import { presentShare, withContent } from '../shares/presenter.ts'
import { unlockAllowance } from '../subscriptions/service.ts'
import { unlockRefusal } from '../subscriptions/rules.ts'
import { presentOrderShare } from './presenter.ts'
import * as repo from './repository.ts'
import { shareAccess } from './rules.ts'

type ShareDeps = Pick<FastifyInstance, 'db' | 'cipher' | 'shareCache' | 'visits' | 'payments' | 'config' | 'clock'>

/**
 * A share by its code: never the content, unless the caller is its owner, an admin, or a signed-in
 * buyer with a completed order — who keep access after the seller deleted it. `visitorKey` counts the
 * view (not the owner's, not on a deleted share).
 */
export async function shareByCode(deps: ShareDeps, viewer: AuthUser | null, unicode: string, visitorKey: () => string): Promise<PublicShare> {
  // Anonymous visitors read through the short-lived cache; signed-in callers read the database.
  const row = viewer ? await repo.shareByCode(deps.db, unicode, { withDeleted: true }) : await deps.shareCache.get(unicode)
  if (!row) throw notFound('shares.notFound')
  const isOwner = viewer?.id === row.share.userId
  const isAdmin = viewer?.role === 'admin'
  const bought = viewer && !isOwner && !isAdmin ? await repo.completedOrderOf(deps.db, row.share.id, viewer.id) : undefined
  const deleted = Boolean(row.share.deletedAt)
  const access = shareAccess({ isOwner, isAdmin, hasBought: Boolean(bought), deleted })
  if (access === 'none') throw notFound('shares.notFound')

  let out = presentShare(row.share, row.seller)
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
  if (bought && !bought.firstRevealedAt) await repo.markFirstRevealed(deps.db, bought.id)
  return withContent(out, row.share, deps.cipher)
}

/**
 * The share of an order by its number (SPEC §4): asks the gateway while the order is not settled, and
 * carries the content once it is Completed — also after the seller deleted the share.
 */
export async function shareByOrder(deps: ShareDeps, orderNo: string, log: FastifyBaseLogger): Promise<PublicShare> {
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
  const row = await repo.shareById(deps.db, order.shareId)
  if (!fresh || !row) throw notFound('orders.notFound')
  const base = presentOrderShare(row, fresh)
  // A refunded order no longer reveals the content.
  if (fresh.paymentStatus !== 'Completed') return base
  if (!fresh.firstRevealedAt) await repo.markFirstRevealed(deps.db, fresh.id)
  return withContent(base, row.share, deps.cipher)
}
