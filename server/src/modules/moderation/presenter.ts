import type { Appeal, Report, ReportReason } from '#contract/moderation.ts'
import type { AppealView, ReportView } from './repository.ts'

export function presentReport(v: ReportView): Report {
  const r = v.r
  return {
    id: r.id,
    reason: r.reason as ReportReason,
    unicode: v.unicode,
    share_id: r.shareId,
    share_title: v.shareTitle,
    description: r.description,
    status: r.status,
    share_status: r.shareStatus as Report['share_status'],
    current_share_status: v.shareStatus,
    reporter_ip: r.reporterIp,
    reporter_name: v.reporterName,
    action: r.action,
    handled_by: v.handlerName,
    handled_at: r.handledAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
  }
}

export function presentAppeal(v: AppealView, reasons: ReportReason[]): Appeal {
  const a = v.a
  return {
    id: a.id,
    description: a.description,
    unicode: v.unicode,
    share_id: a.shareId,
    share_title: v.shareTitle,
    share_status: v.shareStatus,
    seller_name: v.sellerName,
    takedown_no: a.takedownNo,
    reasons,
    appeal_status: a.status,
    handled_by: v.handlerName,
    handled_at: a.handledAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
  }
}
