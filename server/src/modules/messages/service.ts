import type { FastifyInstance } from 'fastify'
import type { Notification, PrivateMessage } from '#contract/messages.ts'
import { invalid, notFound, tooMany } from '../../errors.ts'
import { announce, topics } from '../bus/index.ts'
import { spend } from '../../plugins/app/rate-limits.ts'
import { presentNotification, presentPrivate } from './presenter.ts'
import {
  deleteNotification,
  findUserByName,
  insertNotification,
  insertPrivateMessage,
  listNotifications,
  listPrivateMessages,
  markNotificationsRead,
  markPrivateRead,
  type NotificationInput,
  notificationsReadAt,
  unreadNotifications,
  unreadPrivate,
  updateNotification,
} from './repository.ts'

type Page = { pageNum: number; pageSize: number }

/** One point of the writer's message budget (chat lines and private messages share it): 429 when spent. */
export async function spendMessagePoint(app: FastifyInstance, key: string) {
  const wait = await spend(app.limits.message, key)
  if (wait) throw tooMany('messages.rateLimited', wait)
}

/** The private-message and notification parts of the navbar counts (an admin's messages: every user's replies). */
export async function unreadMessageCounts(app: FastifyInstance, userId: number, admin: boolean) {
  const [messages, since] = await Promise.all([unreadPrivate(app.db, admin ? 'admin' : 'user', admin ? undefined : userId), notificationsReadAt(app.db, userId)])
  return { messages, notifications: await unreadNotifications(app.db, since) }
}

export async function myMessages(app: FastifyInstance, userId: number, page: Page) {
  const { rows, total } = await listPrivateMessages(app.db, { userId }, page)
  return { list: rows.map(presentPrivate), total, ...page }
}

/** A user's reply to the platform: every admin hears of it. */
export async function replyToPlatform(app: FastifyInstance, userId: number, content: string): Promise<PrivateMessage> {
  await spendMessagePoint(app, `u${userId}`)
  const row = await insertPrivateMessage(app.db, { userId, sender: 'user', senderId: userId, content, now: app.clock() })
  const message = presentPrivate(row)
  announce(app, [topics.admin, topics.user(userId)], { type: 'message', message })
  return message
}

/** Marks the user's private messages from the platform, and every notification so far, read. */
export async function markAllRead(app: FastifyInstance, userId: number) {
  const now = app.clock()
  await Promise.all([markPrivateRead(app.db, 'user', userId, now), markNotificationsRead(app.db, userId, now)])
  announce(app, [topics.user(userId)], { type: 'read' })
}

/** Admin: one user's conversation (reading it marks their lines read) or everyone's newest lines. */
export async function adminMessages(app: FastifyInstance, q: Page & { user_id?: number }) {
  if (q.user_id !== undefined && (await markPrivateRead(app.db, 'admin', q.user_id, app.clock()))) announce(app, [topics.admin], { type: 'read' })
  const { rows, total } = await listPrivateMessages(app.db, { userId: q.user_id }, q)
  return { list: rows.map(presentPrivate), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

export async function adminSend(app: FastifyInstance, adminId: number, username: string, content: string): Promise<PrivateMessage> {
  const user = await findUserByName(app.db, username)
  if (!user) throw invalid({ username: ['messages.userNotFound'] })
  await spendMessagePoint(app, `u${adminId}`)
  const row = await insertPrivateMessage(app.db, { userId: user.id, sender: 'admin', senderId: adminId, content, now: app.clock() })
  const message = presentPrivate(row)
  announce(app, [topics.admin, topics.user(user.id)], { type: 'message', message })
  return message
}

export async function userNotifications(app: FastifyInstance, userId: number, page: Page) {
  const [{ rows, total }, since] = await Promise.all([listNotifications(app.db, page), notificationsReadAt(app.db, userId)])
  return { list: rows.map((n) => presentNotification(n, since)), total, ...page }
}

export async function adminNotifications(app: FastifyInstance, page: Page) {
  const { rows, total } = await listNotifications(app.db, page)
  return { list: rows.map((n) => presentNotification(n, undefined)), total, ...page }
}

export async function createNotification(app: FastifyInstance, adminId: number, input: NotificationInput): Promise<Notification> {
  const row = await insertNotification(app.db, input, adminId, app.clock())
  announce(app, [topics.all], { type: 'notification' })
  return presentNotification(row, undefined)
}

export async function editNotification(app: FastifyInstance, id: number, input: NotificationInput): Promise<Notification> {
  const row = await updateNotification(app.db, id, input, app.clock())
  if (!row) throw notFound('messages.notificationNotFound')
  announce(app, [topics.all], { type: 'notification' })
  return presentNotification(row, undefined)
}

/** Deleting twice answers 404 the second time: nothing is left to delete. */
export async function removeNotification(app: FastifyInstance, id: number) {
  if (!(await deleteNotification(app.db, id))) throw notFound('messages.notificationNotFound')
  announce(app, [topics.all], { type: 'notification' })
}
