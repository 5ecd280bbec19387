import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { shanghaiDay } from '#contract/days.ts'
import type { adminSubscriptionListQuerySchema, Subscription, subscriptionListQuerySchema, UnlockAllowance, UnlockedShare } from '#contract/subscriptions.ts'
import type { Database } from '../../db/client.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { conflict, notFound } from '../../errors.ts'
import type { AuthUser } from '../../plugins/app/auth.ts'
import { newOrderNo } from '../orders/index.ts'
import { presentShare, shareAndSellerByCode, withContent } from '../shares/index.ts'
import { presentSubscription } from './presenter.ts'
import * as repo from './repository.ts'
import { dailyAllowance, pickSubscription, remainingOf, unlockRefusal } from './rules.ts'

type Deps = Pick<FastifyInstance, 'db' | 'clock'>
type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number }

/** Today's free unlocks of a user (Asia/Shanghai day; decision 054). */
export async function unlockAllowance(db: Database, userId: number, now: Date): Promise<UnlockAllowance> {
  const limits = await repo.openLimits(db, userId, now)
  // Most readers of a share page have no subscription: one query, not two.
  if (limits.length === 0) return dailyAllowance([], 0)
  return dailyAllowance(limits, await repo.countUnlocksOn(db, userId, shanghaiDay(now)))
}

/** My subscriptions, each with what it leaves today, and today's allowance. */
export async function mySubscriptions({ db, clock }: Deps, userId: number, q: z.output<typeof subscriptionListQuerySchema>) {
  const now = clock()
  const [{ rows, total }, allowance] = await Promise.all([repo.listSubscriptions(db, q, now, userId), unlockAllowance(db, userId, now)])
  const list = rows.map((r) => {
    const s = presentSubscription(r, now)
    return { ...s, remaining_today: Math.min(allowance.remaining_today, remainingOf({ downloadLimit: r.downloadLimit, opened: s.status === 'opened' }, allowance.used_today)) }
  })
  return { list, total, pageNum: q.pageNum, pageSize: q.pageSize, ...allowance }
}

export async function adminSubscriptions({ db, clock }: Deps, q: z.output<typeof adminSubscriptionListQuerySchema>): Promise<Page<Subscription>> {
  const now = clock()
  const { rows, total } = await repo.listSubscriptions(db, q, now)
  return { list: rows.map((r) => presentSubscription(r, now)), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/**
 * A free unlock (DESIGN §3 Packages and subscriptions), in ONE transaction: the caller's open
 * subscriptions are locked, today's unlocks counted against the highest daily limit, and the unlock
 * recorded with its zero-amount order. A share the caller already has (unlocked or bought) uses
 * nothing and is shown again. Answers the share with its content.
 */
export async function unlockShare(app: Pick<FastifyInstance, 'db' | 'clock' | 'cipher'>, user: AuthUser, unicode: string, ip: string): Promise<UnlockedShare> {
  const row = await shareAndSellerByCode(app.db, unicode, { withDeleted: false })
  if (!row) throw notFound('shares.notFound')
  const refusal = unlockRefusal(row, user.id)
  if (refusal) throw conflict(refusal)
  const now = app.clock()
  const day = shanghaiDay(now)
  const attempt = () =>
    app.db.transaction(async (tx) => {
      const open = await repo.lockOpenSubscriptions(tx, user.id, now)
      const had = await repo.completedOrderNo(tx, user.id, row.share.id)
      const allowance = dailyAllowance(
        open.map((s) => s.downloadLimit),
        await repo.countUnlocksOn(tx, user.id, day),
      )
      if (had) return { orderNo: had, already: true, remaining: allowance.remaining_today }
      const sub = pickSubscription(open)
      if (!sub) throw conflict('subscriptions.noSubscription')
      if (allowance.remaining_today <= 0) throw conflict('subscriptions.limitReached', { daily_limit: allowance.daily_limit })
      const orderNo = newOrderNo(now)
      await repo.recordUnlock(tx, { orderNo, userId: user.id, subscriptionId: sub.id, share: row.share, day, ip, now })
      return { orderNo, already: false, remaining: allowance.remaining_today - 1 }
    })
  let done: Awaited<ReturnType<typeof attempt>>
  try {
    done = await attempt()
  } catch (e) {
    // The same share unlocked by a request that did not wait for the lock (no open subscription was
    // locked): it is the caller's now, so this one uses nothing.
    if (uniqueViolation(e) !== 'subscription_unlocks_user_share_key') throw e
    done = await attempt()
  }
  const fresh = (await shareAndSellerByCode(app.db, unicode, { withDeleted: false })) ?? row
  return {
    ...withContent(presentShare(fresh.share, fresh.seller), fresh.share, app.cipher),
    orderNo: done.orderNo,
    already: done.already,
    remaining_today: done.remaining,
  }
}
