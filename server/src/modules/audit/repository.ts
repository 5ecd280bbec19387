import { and, asc, eq } from 'drizzle-orm'
import type { AuditSubject } from '#contract/audit.ts'
import type { Database } from '../../db/client.ts'
import { auditEvents, users } from '../../db/schema/index.ts'

/** One item's trail, oldest first, with the actor's name. */
export function listAuditEvents(db: Database, subject: { type: AuditSubject; id: number }) {
  return db
    .select({
      id: auditEvents.id,
      subjectType: auditEvents.subjectType,
      subjectId: auditEvents.subjectId,
      action: auditEvents.action,
      actorId: auditEvents.actorId,
      actorName: users.userName,
      fromState: auditEvents.fromState,
      toState: auditEvents.toState,
      reason: auditEvents.reason,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(and(eq(auditEvents.subjectType, subject.type), eq(auditEvents.subjectId, subject.id)))
    .orderBy(asc(auditEvents.id))
    .limit(1000)
}
