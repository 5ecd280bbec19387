import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { AUDIT_SUBJECTS } from '../../../../contract/audit.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// The audit trail of admin actions (modules/audit).

/**
 * The append-only audit trail (issue 9): every state change of a share, a user, an order's refund and a
 * withdrawal — who (null: the system), when, from, to, why. Rows are only ever inserted.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subjectType: text('subject_type', { enum: AUDIT_SUBJECTS }).notNull(),
    subjectId: integer('subject_id').notNull(),
    action: text('action').notNull(),
    actorId: integer('actor_id').references(() => users.id),
    fromState: text('from_state'),
    toState: text('to_state'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.id)],
)
