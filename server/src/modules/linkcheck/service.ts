import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import type { adminLinkListQuerySchema, DeadLinkNotice, LinkCheck, LinkTrigger, SellerLinkRate } from '#contract/links.ts'
import type { Database } from '../../db/client.ts'
import { conflict, forbidden, notFound } from '../../errors.ts'
import { systemMessage } from '../messages/index.ts'
import { buyerProof, refundOrder } from '../orders/index.ts'
import { presentLinkSummary, setLinkStopped, shareAndSellerById } from '../shares/index.ts'
import * as repo from './repository.ts'
import { deadLinkMessage, firstCheckAt, hostOf, nextCheckAt, nextStreak, refundDueAt, salesMove, withinRefundWindow } from './rules.ts'

/** What this module's use cases take from the app (decision 120). */
export type LinksDeps = Pick<FastifyInstance, 'db' | 'cipher' | 'shareCache' | 'clock' | 'config' | 'payments' | 'limits' | 'orderEffects' | 'events' | 'log' | 'links'>

const presentSummary = presentLinkSummary

function presentCheck(c: Awaited<ReturnType<typeof repo.insertCheck>>): LinkCheck {
  return { id: c.id, share_id: c.shareId, result: c.result, reason: c.reason, http_status: c.httpStatus, trigger: c.trigger, duration_ms: c.durationMs, checked_at: c.checkedAt.toISOString() }
}

/**
 * Checks one share's link now and records it (issue 25): the check row, the state, the strikes; the
 * second dead result in a row stops the sales and tells the seller, a passing one puts a stopped share
 * back on sale and cancels the refund requests still waiting. The fetch runs outside any transaction;
 * the recording is one transaction on the locked state row.
 */
export async function checkShare(deps: LinksDeps, shareId: number, trigger: LinkTrigger, opts: { sells?: boolean } = {}) {
  const found = await shareAndSellerById(deps.db, shareId)
  if (!found || found.share.deletedAt) throw notFound('shares.notFound')
  const share = found.share
  if (share.type !== 'url' && share.type !== 'netdisk') throw conflict('links.notALink')
  const link = deps.cipher.decrypt(share.contentEnc)
  const host = hostOf(link) ?? 'invalid'
  await repo.ensureState(deps.db, shareId, host, firstCheckAt(deps.clock()))
  const outcome = await deps.links.fetch(host, link)
  const sells = opts.sells ?? (await repo.sells(deps.db, shareId, deps.clock()))
  let told: { announce: (d: LinksDeps) => void } | null = null
  const recorded = await deps.db.transaction(async (tx) => {
    const now = deps.clock()
    const state = (await repo.lockState(tx, shareId))!
    const streak = nextStreak(state.deadStreak, outcome.result)
    const move = salesMove(Boolean(state.stoppedAt), streak, outcome.result)
    const stoppedAt = move === 'stop' ? now : move === 'resume' ? null : state.stoppedAt
    const check = await repo.insertCheck(tx, { shareId, result: outcome.result, reason: outcome.reason, httpStatus: outcome.httpStatus, finalUrl: outcome.finalUrl.slice(0, 2000), trigger, durationMs: outcome.durationMs, checkedAt: now })
    const updated = await repo.updateState(tx, shareId, {
      host,
      state: outcome.result,
      reason: outcome.reason,
      deadStreak: streak,
      lastCheckedAt: now,
      nextCheckAt: nextCheckAt(now, { sells, result: outcome.result, stopped: Boolean(stoppedAt) }),
      stoppedAt,
      checks: state.checks + 1,
      deadChecks: state.deadChecks + (outcome.result === 'dead' ? 1 : 0),
    })
    if (move === 'stop') {
      await setLinkStopped(tx, shareId, now)
      told = await systemMessage(tx, share.userId, deadLinkMessage(share, outcome.reason, linkSettings(deps).fixHours, deps.config.webUrl), now)
    }
    if (move === 'resume') {
      await setLinkStopped(tx, shareId, null)
      await repo.cancelRefundRequests(tx, shareId, now)
    }
    return { check: updated, row: check }
  })
  if (told) (told as { announce: (d: LinksDeps) => void }).announce(deps)
  deps.shareCache.invalidate(share.unicode)
  const stopped = Boolean(recorded.check.stoppedAt)
  return {
    check: presentCheck(recorded.row),
    link: presentSummary(recorded.check),
    for_sale: share.status === 'approved' && found.seller.isBanned !== 1 && !stopped,
  }
}

const linkSettings = (deps: Pick<LinksDeps, 'links'>) => deps.links.settings

/**
 * The schedule, one minute of it (run by the API's minute sweep): links not known yet get a state row
 * (their first check somewhere in the next day), then the due links are claimed and checked, each host
 * at most `hostConcurrency` at a time. `limit` caps one minute's round so a backlog drains over minutes.
 */
export async function sweepLinks(deps: LinksDeps, opts: { limit?: number } = {}) {
  const now = deps.clock()
  for (const s of await repo.sharesWithoutState(deps.db, 1000)) {
    let link = ''
    try {
      link = deps.cipher.decrypt(s.contentEnc)
    } catch {
      // A share whose content this key cannot read is left alone.
      continue
    }
    await repo.ensureState(deps.db, s.id, hostOf(link) ?? 'invalid', firstCheckAt(now))
  }
  // A claim is held 15 minutes: a check that never ends is retried then.
  const due = await repo.claimDue(deps.db, now, opts.limit ?? 2000, 15 * 60_000)
  const results = await Promise.allSettled(due.map((d) => checkShare(deps, d.shareId, 'schedule', { sells: d.sells })))
  for (const r of results) if (r.status === 'rejected') deps.log.warn({ err: r.reason }, 'scheduled link check failed')
  return { checked: due.length }
}

/** Refund requests past their fix window, refunded (the minute sweep); each through `refundDeadLink`. */
export async function sweepDeadLinkRefunds(deps: LinksDeps) {
  const before = new Date(deps.clock().getTime() - linkSettings(deps).fixHours * 3_600_000)
  let refunded = 0
  for (const r of await repo.overdueRefundRequests(deps.db, before)) {
    try {
      if (await refundDeadLink(deps, r.orderId, r.orderNo)) refunded++
    } catch (err) {
      deps.log.warn({ err, orderNo: r.orderNo }, 'dead-link refund failed; retried by the next sweep')
    }
  }
  return refunded
}

/**
 * One request's refund through the refund path (gateway, ledger, audit, content hidden — decision 057):
 * the order row lock makes it Refund once whoever gets there first — a replay, the sweep of another
 * instance, an admin — and the request is closed in the same transaction.
 */
async function refundDeadLink(deps: LinksDeps, orderId: number, orderNo: string): Promise<boolean> {
  let closedHere = false
  await refundOrder(deps, orderNo, deps.log, {
    actorId: null,
    reason: 'dead_link',
    alsoInTx: async (tx) => {
      closedHere = await repo.closeRefundRequest(tx, orderId, 'refunded', deps.clock())
    },
  })
  // Refunded by someone else first (an admin, another instance): the request is over all the same.
  if (!closedHere) await repo.closeRefundRequest(deps.db, orderId, 'refunded', deps.clock())
  return closedHere
}

/**
 * What the buyer of an order sees on a dead link's share (issue 25): null unless the share is stopped
 * and the order was paid within the refund window (or already has a request).
 */
export async function deadLinkNotice(deps: Pick<LinksDeps, 'db' | 'links' | 'clock'>, order: { id: number; orderNo: string; paidAt: Date | null; paymentStatus: string }, shareId: number): Promise<DeadLinkNotice | null> {
  const state = await repo.stateOf(deps.db, shareId)
  const request = await repo.refundRequestOf(deps.db, order.id)
  if (!state?.stoppedAt) {
    return null
  }
  if (!request && (order.paymentStatus !== 'Completed' || !withinRefundWindow(order.paidAt, deps.clock(), linkSettings(deps).refundDays))) return null
  return {
    seller_told_at: state.stoppedAt.toISOString(),
    order_no: order.orderNo,
    refund: request ? request.state : order.paymentStatus === 'Refund' ? 'refunded' : 'available',
    refund_due_at: refundDueAt(state.stoppedAt, linkSettings(deps).fixHours).toISOString(),
  }
}

/**
 * The buyer's one-click request (its account or the browser that paid, decision 102): kept once per
 * order; past the fix window the refund is made at once, else by the sweep when the window ends.
 */
export async function requestDeadLinkRefund(deps: LinksDeps, claim: { userId: number | null; buyerKey: string | null }, orderNo: string): Promise<DeadLinkNotice> {
  const order = await repo.orderByNo(deps.db, orderNo)
  if (!order || !order.shareId) throw notFound('orders.notFound')
  if (!buyerProof(order, claim)) throw forbidden('links.refund.notBuyer')
  const state = await repo.stateOf(deps.db, order.shareId)
  if (!state?.stoppedAt) throw conflict('links.refund.linkNotDead')
  const existing = await repo.refundRequestOf(deps.db, order.id)
  if (!existing) {
    if (order.paymentStatus !== 'Completed') throw conflict('orders.notRefundable', { payment_status: order.paymentStatus })
    if (!withinRefundWindow(order.paidAt, deps.clock(), linkSettings(deps).refundDays)) throw conflict('links.refund.tooLate', { days: linkSettings(deps).refundDays })
    await repo.insertRefundRequest(deps.db, { orderId: order.id, shareId: order.shareId, requestedAt: deps.clock() })
  }
  if (refundDueAt(state.stoppedAt, linkSettings(deps).fixHours) <= deps.clock()) {
    const request = await repo.refundRequestOf(deps.db, order.id)
    if (request?.state === 'requested') await refundDeadLink(deps, order.id, order.orderNo)
  }
  const fresh = (await repo.orderByNo(deps.db, orderNo))!
  return (await deadLinkNotice(deps, fresh, order.shareId))!
}

export async function linkHistory(deps: Pick<LinksDeps, 'db'>, shareId: number) {
  return { list: (await repo.checksOf(deps.db, shareId)).map(presentCheck) }
}

export async function adminLinks(deps: Pick<LinksDeps, 'db'>, q: z.output<typeof adminLinkListQuerySchema>) {
  const { rows, total } = await repo.listLinks(deps.db, q)
  return {
    list: rows.map((r) => ({
      share_id: r.state.shareId,
      unicode: r.unicode,
      title: r.title,
      user_name: r.userName,
      seller_id: r.sellerId,
      host: r.state.host,
      link: presentSummary(r.state),
      next_check_at: r.state.nextCheckAt.toISOString(),
      checks: r.state.checks,
      dead_checks: r.state.deadChecks,
    })),
    total,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
  }
}

/** A seller's dead-link rate (the user page, statistics): dead checks among its links' checks. */
export async function sellerLinkRate(db: Database, sellerId: number): Promise<SellerLinkRate> {
  const r = await repo.sellerRate(db, sellerId)
  return { checks: r.checks, dead_checks: r.deadChecks, rate: rateOf(r.deadChecks, r.checks), dead_links: r.deadLinks, links: r.links }
}

const rateOf = (dead: number, checks: number) => (checks ? Math.round((dead / checks) * 10000) / 10000 : 0)

/** The statistics' dead-link rates: the 20 sellers whose links were found dead most often. */
export async function worstSellerRates(db: Database) {
  const rows = await repo.worstSellers(db, 20)
  return { list: rows.map((r) => ({ seller_id: r.sellerId, user_name: r.userName, checks: r.checks, dead_checks: r.deadChecks, rate: rateOf(r.deadChecks, r.checks), links: r.links, dead_links: r.deadLinks })) }
}
