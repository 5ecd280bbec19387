import { z } from 'zod'
import { endpoint, timestamp } from './http.ts'

/** What the audit trail follows (issue 9): shares, users, orders' refunds and withdrawals. */
export const AUDIT_SUBJECTS = ['share', 'user', 'order', 'withdrawal'] as const
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number]

/** `share:12`, `user:3`, … — the item whose history is asked for. */
export const auditSubjectSchema = z
  .string({ error: 'audit.validation.subject' })
  .trim()
  .regex(/^(share|user|order|withdrawal):[1-9]\d{0,9}$/, 'audit.validation.subject')
  .transform((s) => {
    const [type, id] = s.split(':')
    return { type: type as AuditSubject, id: Number(id) }
  })
  .refine((s) => s.id <= 2_147_483_647, 'audit.validation.subject')

export const auditEventSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  action: z.string(),
  /** Who did it; null when the system did (a sweep, a gateway notification). */
  actor: z.object({ id: z.number().int(), user_name: z.string() }).nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: timestamp,
})
export type AuditEvent = z.infer<typeof auditEventSchema>

export const auditApi = {
  adminList: endpoint({
    method: 'GET',
    path: '/api/audit/admin/list',
    access: 'admin',
    tag: 'audit',
    summary: "One item's audit trail, oldest first",
    query: z.object({ subject: auditSubjectSchema }),
    response: z.object({ list: z.array(auditEventSchema) }),
  }),
}
