import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { notificationReads, notifications, privateMessages, users } from '../../db/schema/index.ts'
import type { Sender } from '#contract/messages.ts'
import { type PageQuery, readPage } from '../../db/paging.ts'

export type PrivateMessageRow = typeof privateMessages.$inferSelect & { username: string }
export type NotificationRow = typeof notifications.$inferSelect


const messageColumns = {
  id: privateMessages.id,
  userId: privateMessages.userId,
  sender: privateMessages.sender,
  senderId: privateMessages.senderId,
  content: privateMessages.content,
  readAt: privateMessages.readAt,
  createdAt: privateMessages.createdAt,
  username: users.userName,
}

export async function listPrivateMessages(db: Database, scope: { userId?: number }, page: PageQuery) {
  const where = scope.userId !== undefined ? eq(privateMessages.userId, scope.userId) : undefined
  return readPage(
    page,
    db.select(messageColumns).from(privateMessages).innerJoin(users, eq(users.id, privateMessages.userId)).where(where).orderBy(desc(privateMessages.id)),
    db.select({ n: count() }).from(privateMessages).where(where),
  )
}

export async function insertPrivateMessage(db: Database, m: { userId: number; sender: Sender; senderId: number | null; content: string; now: Date }): Promise<PrivateMessageRow> {
  const [row] = await db.insert(privateMessages).values({ userId: m.userId, sender: m.sender, senderId: m.senderId, content: m.content, createdAt: m.now }).returning()
  const [user] = await db.select({ userName: users.userName }).from(users).where(eq(users.id, m.userId))
  return { ...row!, username: user!.userName }
}

/** Marks the counterpart's lines read: a user reads the platform's, an admin the users' (of one user, or all). */
export async function markPrivateRead(db: Database, reader: Sender, userId: number | undefined, now: Date): Promise<number> {
  const rows = await db
    .update(privateMessages)
    .set({ readAt: now })
    .where(and(isNull(privateMessages.readAt), eq(privateMessages.sender, reader === 'admin' ? 'user' : 'admin'), userId !== undefined ? eq(privateMessages.userId, userId) : undefined))
    .returning({ id: privateMessages.id })
  return rows.length
}

export async function unreadPrivate(db: Database, reader: Sender, userId: number | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(privateMessages)
    .where(and(isNull(privateMessages.readAt), eq(privateMessages.sender, reader === 'admin' ? 'user' : 'admin'), userId !== undefined ? eq(privateMessages.userId, userId) : undefined))
  return row?.n ?? 0
}

export async function findUserByName(db: Database, name: string) {
  const [row] = await db.select({ id: users.id, userName: users.userName }).from(users).where(eq(users.userName, name))
  return row
}

export async function notificationsReadAt(db: Database, userId: number): Promise<Date | null> {
  const [row] = await db.select({ readAt: notificationReads.readAt }).from(notificationReads).where(eq(notificationReads.userId, userId))
  return row?.readAt ?? null
}

export async function markNotificationsRead(db: Database, userId: number, now: Date) {
  await db.insert(notificationReads).values({ userId, readAt: now }).onConflictDoUpdate({ target: notificationReads.userId, set: { readAt: sql`greatest(${notificationReads.readAt}, excluded.read_at)` } })
}

export async function unreadNotifications(db: Database, since: Date | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(since ? gt(notifications.updatedAt, since) : undefined)
  return row?.n ?? 0
}

export async function listNotifications(db: Database, page: PageQuery) {
  return readPage(page, db.select().from(notifications).orderBy(desc(notifications.priority), desc(notifications.id)), db.select({ n: count() }).from(notifications))
}

export type NotificationInput = { title: string; priority: number; content: string; label_color: NotificationRow['labelColor'] }

const columnsOf = (n: NotificationInput) => ({ title: n.title, priority: n.priority, content: n.content, labelColor: n.label_color })

export async function insertNotification(db: Database, n: NotificationInput, by: number, now: Date): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values({ ...columnsOf(n), createdBy: by, createdAt: now, updatedAt: now }).returning()
  return row!
}

export async function updateNotification(db: Database, id: number, n: NotificationInput, now: Date): Promise<NotificationRow | undefined> {
  const [row] = await db.update(notifications).set({ ...columnsOf(n), updatedAt: now }).where(eq(notifications.id, id)).returning()
  return row
}

export async function deleteNotification(db: Database, id: number): Promise<boolean> {
  const rows = await db.delete(notifications).where(eq(notifications.id, id)).returning({ id: notifications.id })
  return rows.length > 0
}
