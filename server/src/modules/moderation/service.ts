import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import type {
  adminAppealListQuerySchema,
  adminReportListQuerySchema,
  Appeal,
  AppealAction,
  Report,
  ReportAction,
  reportCreateSchema,
  ReportStatusView,
  Takedown,
} from '#contract/moderation.ts'
import type { ShareStatus } from '#contract/shares.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { conflict, notFound, tooMany } from '../../errors.ts'
import { spend } from '../../plugins/app/rate-limits.ts'
import { recordAudit } from '../audit/index.ts'
import { lockShare, setShareStatus } from '../shares/index.ts'
import { presentAppeal, presentReport } from './presenter.ts'
import * as repo from './repository.ts'
import { appealAuditAction, appealMove, canAppeal, handleMove, reportAuditAction, reportChange } from './rules.ts'

type Deps = Pick<FastifyInstance, 'db' | 'limits' | 'shareCache' | 'clock' | 'links'>

/**
 * A visitor's report (issue 9): spends the IP's point first (so a flood of unknown codes is limited
 * too), then one of this IP's points for this share; records who reported (IP, user when signed in)
 * and the share's status at that moment.
 */
export async function createReport(app: Deps, input: z.output<typeof reportCreateSchema> & { ip: string; userId: number | null }): Promise<{ id: number }> {
  const ipWait = await spend(app.limits.reportIp, input.ip)
  if (ipWait) throw tooMany('moderation.tooManyReports', ipWait)
  const share = await repo.findShareByUnicode(app.db, input.unicode)
  if (!share || share.deletedAt) throw notFound('moderation.shareNotFound')
  const shareWait = await spend(app.limits.reportShare, `${input.ip}|${share.id}`)
  if (shareWait) throw tooMany('moderation.tooManyReports', shareWait)
  const row = await repo.insertReport(app.db, {
    shareId: share.id,
    reason: input.reason,
    description: input.description,
    reporterIp: input.ip,
    reporterId: input.userId,
    shareStatus: share.status,
    createdAt: app.clock(),
  })
  // "The link does not work": the link is checked at once (issue 25).
  if (input.reason === 'dead_link' && (share.type === 'url' || share.type === 'netdisk')) app.links.saved(share.id, 'report')
  return { id: row.id }
}

/** A report's progress for whoever holds its number and the share's code; 404 when they do not match. */
export async function reportStatus(app: Deps, id: number, unicode: string): Promise<ReportStatusView> {
  const v = await repo.reportView(app.db, id)
  if (!v || v.unicode !== unicode) throw notFound('moderation.reportNotFound')
  return {
    id: v.r.id,
    unicode: v.unicode,
    status: v.r.status,
    action: v.r.action,
    created_at: v.r.createdAt.toISOString(),
    handled_at: v.r.handledAt?.toISOString() ?? null,
  }
}

export async function reportPage(app: Deps, q: z.output<typeof adminReportListQuerySchema>) {
  const { rows, total } = await repo.listReports(app.db, q)
  return { list: rows.map(presentReport), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

export type HandleResult = { report: Report; share_status: ShareStatus; handled: number; changed: boolean }

/**
 * An admin's decision on a report, in one transaction: the share locked first (then the report, always
 * in that order, so two admins handling two reports of one share run one after the other), the action
 * applied to the share (with its audit row), and every open report of the share closed with it. The
 * same decision again answers unchanged; a different one on a handled report is a 409.
 */
export async function handleReport(app: Deps, adminId: number, id: number, action: ReportAction): Promise<HandleResult> {
  const found = await repo.findReport(app.db, id)
  if (!found) throw notFound('moderation.reportNotFound')
  const result = await app.db.transaction(async (tx) => {
    const share = (await lockShare(tx, found.shareId))!
    const report = (await repo.findReport(tx, id, true))!
    const move = handleMove(report, action)
    if (move === 'conflict') throw conflict('moderation.reportHandled', { action: report.action })
    if (move === 'repeat') return { shareStatus: share.status, handled: 0, unicode: share.unicode }
    const change = reportChange(share.status, action)
    if (!change) throw conflict('moderation.actionNotAllowed', { share_status: share.status })
    const now = app.clock()
    let status = share.status
    if (change.to) {
      const updated = await setShareStatus(tx, share.id, { status: change.to, ...(change.takedown ? { takedowns: share.takedowns + 1 } : {}) }, now)
      status = updated.status
      await recordAudit(tx, {
        subject: 'share',
        subjectId: share.id,
        action: reportAuditAction(action),
        actorId: adminId,
        from: share.status,
        to: change.to,
        reason: `#${report.id} ${report.reason}${report.description ? `: ${report.description}` : ''}`.slice(0, 500),
        at: now,
      })
    }
    const handled = await repo.closeOpenReports(tx, share.id, { action, handledBy: adminId, handledAt: now })
    return { shareStatus: status, handled, unicode: share.unicode }
  })
  if (result.handled) app.shareCache.invalidate(result.unicode)
  return { report: presentReport((await repo.reportView(app.db, id))!), share_status: result.shareStatus, handled: result.handled, changed: result.handled > 0 }
}

/**
 * A seller's appeal against the current take-down of their share, once per take-down (the unique key
 * (share_id, takedown_no) decides between two racing requests). Another seller's share answers 404.
 */
export async function createAppeal(app: Deps, sellerId: number, unicode: string, description: string): Promise<Appeal> {
  const share = await repo.findShareByUnicode(app.db, unicode)
  if (!share || share.userId !== sellerId || share.deletedAt) throw notFound('moderation.shareNotFound')
  let appealId: number
  try {
    appealId = await app.db.transaction(async (tx) => {
      const locked = (await lockShare(tx, share.id))!
      if (!canAppeal(locked.status)) throw conflict('moderation.notTakenDown', { share_status: locked.status })
      const row = await repo.insertAppeal(tx, { shareId: locked.id, sellerId, takedownNo: locked.takedowns, description, createdAt: app.clock() })
      return row.id
    })
  } catch (e) {
    if (uniqueViolation(e) === 'appeals_share_takedown_key') throw conflict('moderation.alreadyAppealed')
    throw e
  }
  return appealById(app, appealId)
}

async function appealById(app: Deps, id: number): Promise<Appeal> {
  const v = (await repo.appealView(app.db, id))!
  const reasons = await repo.takedownReasons(app.db, [v.a.shareId])
  return presentAppeal(v, reasons.get(v.a.shareId) ?? [])
}

export async function myTakedowns(app: Deps, sellerId: number): Promise<{ list: Takedown[] }> {
  const rows = await repo.sellerTakedowns(app.db, sellerId)
  const reasons = await repo.takedownReasons(
    app.db,
    rows.map((r) => r.share.id),
  )
  return {
    list: rows.map((r) => ({
      share_id: r.share.id,
      unicode: r.share.unicode,
      takedown_no: r.share.takedowns,
      reasons: reasons.get(r.share.id) ?? [],
      appeal: r.appeal ? { id: r.appeal.id, appeal_status: r.appeal.status, description: r.appeal.description, createdAt: r.appeal.createdAt.toISOString() } : null,
    })),
  }
}

export async function appealPage(app: Deps, q: z.output<typeof adminAppealListQuerySchema>) {
  const { rows, total } = await repo.listAppeals(app.db, q)
  const reasons = await repo.takedownReasons(app.db, [...new Set(rows.map((r) => r.a.shareId))])
  return { list: rows.map((v) => presentAppeal(v, reasons.get(v.a.shareId) ?? [])), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/**
 * An admin's decision on an appeal, in one transaction (share locked, then the appeal): approve
 * recovers the share, ban makes it a violation; both recorded in the share's audit trail.
 */
export async function handleAppeal(app: Deps, adminId: number, id: number, action: AppealAction): Promise<{ appeal: Appeal; changed: boolean }> {
  const found = await repo.findAppeal(app.db, id)
  if (!found) throw notFound('moderation.appealNotFound')
  const changed = await app.db.transaction(async (tx) => {
    const share = (await lockShare(tx, found.shareId))!
    const appeal = (await repo.findAppeal(tx, id, true))!
    const move = appealMove(appeal, share, action)
    if (move.kind === 'conflict') throw conflict(move.msg, { appeal_status: appeal.status, share_status: share.status })
    if (move.kind === 'repeat') return null
    const now = app.clock()
    await setShareStatus(tx, share.id, { status: move.share }, now)
    await repo.updateAppeal(tx, appeal.id, { status: move.appeal, handledBy: adminId, handledAt: now })
    await recordAudit(tx, {
      subject: 'share',
      subjectId: share.id,
      action: appealAuditAction(action),
      actorId: adminId,
      from: share.status,
      to: move.share,
      reason: `#${appeal.id}: ${appeal.description}`.slice(0, 500),
      at: now,
    })
    return share.unicode
  })
  if (changed) app.shareCache.invalidate(changed)
  return { appeal: await appealById(app, id), changed: Boolean(changed) }
}
