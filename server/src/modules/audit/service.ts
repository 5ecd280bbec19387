import type { AuditSubject } from '#contract/audit.ts'
import type { Database } from '../../db/client.ts'
import { auditEvents } from '../../db/schema/index.ts'

export type AuditRecord = {
  subject: AuditSubject
  subjectId: number
  /** What happened, a stable key (`take_down`, `ban`, `refund`, `process`, …). */
  action: string
  /** The admin or user who did it; null for the system. */
  actorId: number | null
  from?: string | null
  to?: string | null
  reason?: string | null
  at?: Date
}

/**
 * Appends one state change to the audit trail (issue 9). Call it inside the transaction of the change
 * itself (pass the `tx`), so the trail holds exactly the changes that committed. The table refuses
 * updates and deletes (migration 0004), so the trail is append-only.
 */
export async function recordAudit(tx: Database, r: AuditRecord): Promise<void> {
  await tx.insert(auditEvents).values({
    subjectType: r.subject,
    subjectId: r.subjectId,
    action: r.action,
    actorId: r.actorId,
    fromState: r.from ?? null,
    toState: r.to ?? null,
    reason: r.reason ?? null,
    ...(r.at ? { createdAt: r.at } : {}),
  })
}
