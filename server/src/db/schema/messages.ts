import { sql } from 'drizzle-orm'
import { bigserial, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { LABEL_COLORS, SENDERS } from '../../../../contract/messages.ts'
import { createdAt } from './columns.ts'
import { users } from './users.ts'

// Private messages and system notifications (modules/messages).

/** Private messages between one user and the platform (issue 10). */
export const privateMessages = pgTable(
  'private_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    sender: text('sender', { enum: SENDERS }).notNull(),
    /** The admin who wrote (sender admin), or the user. */
    senderId: integer('sender_id').references(() => users.id),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('private_messages_user_idx').on(t.userId, t.id), index('private_messages_unread_idx').on(t.sender, t.userId).where(sql`read_at IS NULL`)],
)

/** System notifications (SPEC §3), shown to every user by priority. */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    priority: integer('priority').notNull().default(0),
    content: text('content').notNull(),
    labelColor: text('label_color', { enum: LABEL_COLORS }).notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_priority_idx').on(t.priority, t.id)],
)

/** Up to when a user has read the notifications (those created later are unread). */
export const notificationReads = pgTable('notification_reads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  readAt: timestamp('read_at', { withTimezone: true }).notNull(),
})
