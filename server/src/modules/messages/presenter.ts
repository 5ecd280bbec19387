import type { Notification, PrivateMessage } from '#contract/messages.ts'
import type { NotificationRow, PrivateMessageRow } from './repository.ts'

export const presentPrivate = (m: PrivateMessageRow): PrivateMessage => ({
  id: m.id,
  user_id: m.userId,
  username: m.username,
  sender: m.sender,
  content: m.content,
  created_at: m.createdAt.toISOString(),
  read_at: m.readAt ? m.readAt.toISOString() : null,
})

/** `readSince`: when the reader last marked notifications read (null: never; undefined: an admin list, nothing is unread). */
export const presentNotification = (n: NotificationRow, readSince: Date | null | undefined): Notification => ({
  id: n.id,
  title: n.title,
  priority: n.priority,
  content: n.content,
  label_color: n.labelColor,
  created_at: n.createdAt.toISOString(),
  updated_at: n.updatedAt.toISOString(),
  unread: readSince === undefined ? false : readSince === null || n.updatedAt > readSince,
})
