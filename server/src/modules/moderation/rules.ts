import type { AppealAction, AppealStatus, ReportAction, ReportStatus } from '#contract/moderation.ts'
import { reportActionsFrom } from '#contract/moderation.ts'
import type { ShareStatus } from '#contract/shares.ts'

/** What an action does to the share: its new status (null: it keeps its status) and whether it is a new take-down. */
export type ShareChange = { to: ShareStatus | null; takedown: boolean }

/**
 * SPEC §4 report actions on the share's status now: recover brings a taken-down share back (an approved
 * or under-review one keeps its status: the report is dismissed); take down moves an approved share to
 * reported_invalid and counts a new take-down (already down: the report is closed the same way); ban is
 * final. `null`: the action does not apply to that status (see reportActionsFrom).
 */
export function reportChange(status: ShareStatus, action: ReportAction): ShareChange | null {
  if (!reportActionsFrom(status).includes(action)) return null
  if (action === 'recover') return { to: status === 'reported_invalid' ? 'approved' : null, takedown: false }
  if (action === 'take_down') return { to: status === 'approved' ? 'reported_invalid' : null, takedown: status === 'approved' }
  return { to: status === 'violation' ? null : 'violation', takedown: false }
}

/** A handle on a report: applied while it is open; the same action again is a repeat; another one a conflict. */
export function handleMove(report: { status: ReportStatus; action: ReportAction | null }, action: ReportAction): 'apply' | 'repeat' | 'conflict' {
  if (report.status === 'processing') return 'apply'
  return report.action === action ? 'repeat' : 'conflict'
}

const APPEAL_RESULT: Record<AppealAction, { appeal: Exclude<AppealStatus, 'pending'>; share: ShareStatus }> = {
  approve: { appeal: 'approved', share: 'approved' },
  ban: { appeal: 'banned', share: 'violation' },
}

/**
 * An admin's decision on an appeal: applies to a pending appeal of the share's current take-down; the
 * same decision again is a repeat; a different one, or a share that moved on meanwhile (recovered or
 * banned elsewhere, taken down again), is a conflict.
 */
export function appealMove(
  appeal: { status: AppealStatus; takedownNo: number },
  share: { status: ShareStatus; takedowns: number },
  action: AppealAction,
): { kind: 'apply'; appeal: AppealStatus; share: ShareStatus } | { kind: 'repeat' } | { kind: 'conflict'; msg: string } {
  const result = APPEAL_RESULT[action]
  if (appeal.status !== 'pending') return appeal.status === result.appeal ? { kind: 'repeat' } : { kind: 'conflict', msg: 'moderation.appealHandled' }
  if (share.status !== 'reported_invalid' || share.takedowns !== appeal.takedownNo) return { kind: 'conflict', msg: 'moderation.appealStale' }
  return { kind: 'apply', appeal: result.appeal, share: result.share }
}

/** A seller may appeal a share while it is taken down (once per take-down: the unique key decides). */
export const canAppeal = (status: ShareStatus) => status === 'reported_invalid'

/** The audit action of a report handle / an appeal decision (catalog `audit.action.*`). */
export const reportAuditAction = (a: ReportAction) => `report_${a}`
export const appealAuditAction = (a: AppealAction) => `appeal_${a}`
