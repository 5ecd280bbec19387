import { z } from 'zod'
import { unicodeSchema } from './codes.ts'
import { endpoint, pageOf, timestamp } from './http.ts'
import { SHARE_STATUSES, type ShareStatus } from './shares.ts'
import { idSchema, pageQuerySchema } from './users.ts'
import { batchIdsSchema, batchResultSchema } from './batch.ts'

/** Why a visitor reports a share (issue 9; `dead_link`: the link does not work, checked at once — issue 25): a fixed list, translated as `moderation.reason.<key>`. */
export const REPORT_REASONS = ['dead_link', 'fraud', 'illegal', 'porn', 'infringement', 'spam', 'other'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]
export const REPORT_DESCRIPTION_MAX = 500
export const APPEAL_DESCRIPTION_MAX = 1000

/** SPEC §4 Report status: processing (ReportStatusProcessing) → handled (ReportStatusHandled). */
export const REPORT_STATUSES = ['processing', 'handled'] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]
/** SPEC §4 report admin actions: recover the share, take it down (appealable), ban it (final). */
export const REPORT_ACTIONS = ['recover', 'take_down', 'ban'] as const
export type ReportAction = (typeof REPORT_ACTIONS)[number]

export const APPEAL_STATUSES = ['pending', 'approved', 'banned'] as const
export type AppealStatus = (typeof APPEAL_STATUSES)[number]
/** SPEC §4 appeal admin actions: approve (the share is recovered) or ban it as a violation. */
export const APPEAL_ACTIONS = ['approve', 'ban'] as const
export type AppealAction = (typeof APPEAL_ACTIONS)[number]

/**
 * Which report actions apply to a share in a status (the console offers these; the API refuses the
 * rest with 409). A share under review is reviewed on share-manage, not taken down: recover (dismiss
 * the report, the share stays under review) or ban. A banned share can only have its reports closed.
 */
const REPORT_ACTIONS_FROM: Record<ShareStatus, readonly ReportAction[]> = {
  under_review: ['recover', 'ban'],
  approved: ['recover', 'take_down', 'ban'],
  reported_invalid: ['recover', 'take_down', 'ban'],
  violation: ['ban'],
}
export function reportActionsFrom(status: ShareStatus): readonly ReportAction[] {
  return REPORT_ACTIONS_FROM[status]
}

const description = (max: number, tooLong: string) => z.string({ error: tooLong }).trim().max(max, tooLong)

export const reportCreateSchema = z.object({
  unicode: unicodeSchema,
  reason: z.enum(REPORT_REASONS, { error: 'moderation.validation.reason' }),
  description: description(REPORT_DESCRIPTION_MAX, 'moderation.validation.descriptionTooLong').default(''),
})

/** Following a report: its number AND the share's code, so a number alone tells nothing to a stranger. */
export const reportStatusQuerySchema = z.object({ id: idSchema, unicode: unicodeSchema })

export const reportStatusSchema = z.object({
  id: z.number().int(),
  unicode: z.string(),
  status: z.enum(REPORT_STATUSES),
  /** What the admin decided once handled; null while processing. */
  action: z.enum(REPORT_ACTIONS).nullable(),
  created_at: timestamp,
  handled_at: timestamp.nullable(),
})
export type ReportStatusView = z.infer<typeof reportStatusSchema>

const dayFilters = {
  /** Asia/Shanghai days of the creation time, inclusive. */
  from: z.iso.date({ error: 'validation.date' }).optional(),
  to: z.iso.date({ error: 'validation.date' }).optional(),
}

export const adminReportListQuerySchema = pageQuerySchema.extend({
  status: z.enum(REPORT_STATUSES).optional(),
  unicode: z.string().trim().max(32, 'validation.tooLong').optional(),
  reason: z.enum(REPORT_REASONS).optional(),
  ...dayFilters,
})

/** SPEC §3 Report, for the admin queue; `share_status` is the share's status when reported. */
export const reportSchema = z.object({
  id: z.number().int(),
  reason: z.enum(REPORT_REASONS),
  unicode: z.string(),
  share_id: z.number().int(),
  share_title: z.string(),
  description: z.string(),
  status: z.enum(REPORT_STATUSES),
  share_status: z.enum(SHARE_STATUSES),
  /** The share's status now (what the actions apply to). */
  current_share_status: z.enum(SHARE_STATUSES),
  reporter_ip: z.string(),
  reporter_name: z.string().nullable(),
  action: z.enum(REPORT_ACTIONS).nullable(),
  handled_by: z.string().nullable(),
  handled_at: timestamp.nullable(),
  created_at: timestamp,
})
export type Report = z.infer<typeof reportSchema>

export const reportHandleSchema = z.object({ id: idSchema, action: z.enum(REPORT_ACTIONS, { error: 'moderation.validation.action' }) })

/** A handle's answer: the report, the share's status after it, and how many reports it closed (0 on a repeat). */
export const reportHandledSchema = z.object({ report: reportSchema, share_status: z.enum(SHARE_STATUSES), handled: z.number().int() })

export const appealCreateSchema = z.object({
  unicode: unicodeSchema,
  description: z
    .string({ error: 'moderation.validation.appealRequired' })
    .trim()
    .min(1, { error: 'moderation.validation.appealRequired', abort: true })
    .max(APPEAL_DESCRIPTION_MAX, 'moderation.validation.descriptionTooLong'),
})

export const adminAppealListQuerySchema = pageQuerySchema.extend({
  appeal_status: z.enum(APPEAL_STATUSES).optional(),
  unicode: z.string().trim().max(32, 'validation.tooLong').optional(),
  ...dayFilters,
})

/** SPEC §3 Appeal (description, unicode, createdAt, appeal_status) with what the admin needs beside it. */
export const appealSchema = z.object({
  id: z.number().int(),
  description: z.string(),
  unicode: z.string(),
  share_id: z.number().int(),
  share_title: z.string(),
  share_status: z.enum(SHARE_STATUSES),
  seller_name: z.string(),
  takedown_no: z.number().int(),
  /** The reasons of the reports the take-down answered (empty: taken down from share-manage). */
  reasons: z.array(z.enum(REPORT_REASONS)),
  appeal_status: z.enum(APPEAL_STATUSES),
  handled_by: z.string().nullable(),
  handled_at: timestamp.nullable(),
  createdAt: timestamp,
})
export type Appeal = z.infer<typeof appealSchema>

export const appealHandleSchema = z.object({ id: idSchema, action: z.enum(APPEAL_ACTIONS, { error: 'moderation.validation.action' }) })

/** One decision on several reports / appeals (decision 125). */
export const reportBatchSchema = z.object({ ids: batchIdsSchema, action: reportHandleSchema.shape.action })
export const appealBatchSchema = z.object({ ids: batchIdsSchema, action: appealHandleSchema.shape.action })

/** A seller's taken-down share: why, and their appeal of this take-down if any. */
export const takedownSchema = z.object({
  share_id: z.number().int(),
  unicode: z.string(),
  takedown_no: z.number().int(),
  reasons: z.array(z.enum(REPORT_REASONS)),
  appeal: z.object({ id: z.number().int(), appeal_status: z.enum(APPEAL_STATUSES), description: z.string(), createdAt: timestamp }).nullable(),
})
export type Takedown = z.infer<typeof takedownSchema>

export const reportsApi = {
  create: endpoint({
    method: 'POST',
    path: '/api/reports/create',
    access: 'optional',
    tag: 'reports',
    summary: 'Report a share (no login needed); answers the report number. Rate-limited per IP and share',
    body: reportCreateSchema,
    response: z.object({ id: z.number().int() }),
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/reports/status',
    access: 'public',
    tag: 'reports',
    summary: "A report's progress by its number and the share's code (nothing about the reporter)",
    query: reportStatusQuerySchema,
    response: reportStatusSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/reports/admin/list',
    access: 'admin',
    tag: 'reports',
    summary: 'The report queue, newest first',
    query: adminReportListQuerySchema,
    response: pageOf(reportSchema),
  }),
  adminHandle: endpoint({
    method: 'POST',
    path: '/api/reports/admin/handle',
    access: 'admin',
    tag: 'reports',
    summary: "Recover, take down or ban the reported share; closes the share's other open reports the same way",
    body: reportHandleSchema,
    response: reportHandledSchema,
  }),
  adminBatch: endpoint({
    method: 'POST',
    path: '/api/reports/admin/batch',
    access: 'admin',
    tag: 'reports',
    summary: 'One action on several reports, each as /handle would (its own transaction, its share’s other open reports closed); a result per report',
    body: reportBatchSchema,
    response: batchResultSchema,
  }),
}

export const appealsApi = {
  create: endpoint({
    method: 'POST',
    path: '/api/appeals/create',
    access: 'user',
    tag: 'appeals',
    summary: "The seller appeals their share's take-down (once per take-down)",
    body: appealCreateSchema,
    response: appealSchema,
  }),
  mine: endpoint({
    method: 'GET',
    path: '/api/appeals/mine',
    access: 'user',
    tag: 'appeals',
    summary: "The caller's taken-down shares: the reasons and their appeal of the current take-down",
    response: z.object({ list: z.array(takedownSchema) }),
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/appeals/admin/list',
    access: 'admin',
    tag: 'appeals',
    summary: 'The appeals, newest first',
    query: adminAppealListQuerySchema,
    response: pageOf(appealSchema),
  }),
  adminHandle: endpoint({
    method: 'POST',
    path: '/api/appeals/admin/handle',
    access: 'admin',
    tag: 'appeals',
    summary: 'Approve an appeal (the share is recovered) or ban the share as a violation',
    body: appealHandleSchema,
    response: appealSchema,
  }),
  adminBatch: endpoint({
    method: 'POST',
    path: '/api/appeals/admin/batch',
    access: 'admin',
    tag: 'appeals',
    summary: 'One decision on several appeals, each as /handle would; a result per appeal',
    body: appealBatchSchema,
    response: batchResultSchema,
  }),
}
