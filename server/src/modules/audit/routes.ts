import { auditApi } from '#contract/audit.ts'
import { defineModule, ok } from '../../http/module.ts'
import { listAuditEvents } from './repository.ts'

/** GET /api/audit/admin/list?subject=share:ID|user:ID|order:ID|withdrawal:ID (admin). */
export default defineModule({
  name: 'audit',
  admin(r) {
    r.route(auditApi.adminList, async (request) => {
      const rows = await listAuditEvents(r.app.db, request.query.subject)
      return ok({
        list: rows.map((e) => ({
          id: e.id,
          subject: `${e.subjectType}:${e.subjectId}`,
          action: e.action,
          actor: e.actorId === null ? null : { id: e.actorId, user_name: e.actorName ?? '' },
          from: e.fromState,
          to: e.toState,
          reason: e.reason,
          created_at: e.createdAt.toISOString(),
        })),
      })
    })
  },
})
