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

/** What this module's use cases take from the app (decision 120). */
type MessagesDeps = Pick<FastifyInstance, 'clock' | 'db' | 'events' | 'limits' | 'log'>

type Page = { pageNum: number; pageSize: number }

/** One point of the writer's message budget (chat lines and private messages share it): 429 when spent. */
export async function spendMessagePoint(deps: MessagesDeps, key: string) {
  const wait = await spend(deps.limits.message, key)
  if (wait) throw tooMany('messages.rateLimited', wait)
}

/** The private-message and notification parts of the navbar counts (an admin's messages: every user's replies). */
export async function unreadMessageCounts(deps: MessagesDeps, userId: number, admin: boolean) {
  const [messages, since] = await Promise.all([unreadPrivate(deps.db, admin ? 'admin' : 'user', admin ? undefined : userId), notificationsReadAt(deps.db, userId)])
  return { messages, notifications: await unreadNotifications(deps.db, since) }
}

export async function myMessages(deps: MessagesDeps, userId: number, page: Page) {
  const { rows, total } = await listPrivateMessages(deps.db, { userId }, page)
  return { list: rows.map(presentPrivate), total, ...page }
}

/** A user's reply to the platform: every admin hears of it. */
export async function replyToPlatform(deps: MessagesDeps, userId: number, content: string): Promise<PrivateMessage> {
  await spendMessagePoint(deps, `u${userId}`)
  const row = await insertPrivateMessage(deps.db, { userId, sender: 'user', senderId: userId, content, now: deps.clock() })
  const message = presentPrivate(row)
  announce(deps, [topics.admin, topics.user(userId)], { type: 'message', message })
  return message
}

/** Marks the user's private messages from the platform, and every notification so far, read. */
export async function markAllRead(deps: MessagesDeps, userId: number) {
  const now = deps.clock()
  await Promise.all([markPrivateRead(deps.db, 'user', userId, now), markNotificationsRead(deps.db, userId, now)])
  announce(deps, [topics.user(userId)], { type: 'read' })
}

/** Admin: one user's conversation (reading it marks their lines read) or everyone's newest lines. */
export async function adminMessages(deps: MessagesDeps, q: Page & { user_id?: number }) {
  if (q.user_id !== undefined && (await markPrivateRead(deps.db, 'admin', q.user_id, deps.clock()))) announce(deps, [topics.admin], { type: 'read' })
  const { rows, total } = await listPrivateMessages(deps.db, { userId: q.user_id }, q)
  return { list: rows.map(presentPrivate), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

export async function adminSend(deps: MessagesDeps, adminId: number, username: string, content: string): Promise<PrivateMessage> {
  const user = await findUserByName(deps.db, username)
  if (!user) throw invalid({ username: ['messages.userNotFound'] })
  await spendMessagePoint(deps, `u${adminId}`)
  const row = await insertPrivateMessage(deps.db, { userId: user.id, sender: 'admin', senderId: adminId, content, now: deps.clock() })
  const message = presentPrivate(row)
  announce(deps, [topics.admin, topics.user(user.id)], { type: 'message', message })
  return message
}

export async function userNotifications(deps: MessagesDeps, userId: number, page: Page) {
  const [{ rows, total }, since] = await Promise.all([listNotifications(deps.db, page), notificationsReadAt(deps.db, userId)])
  return { list: rows.map((n) => presentNotification(n, since)), total, ...page }
}

export async function adminNotifications(deps: MessagesDeps, page: Page) {
  const { rows, total } = await listNotifications(deps.db, page)
  return { list: rows.map((n) => presentNotification(n, undefined)), total, ...page }
}

export async function createNotification(deps: MessagesDeps, adminId: number, input: NotificationInput): Promise<Notification> {
  const row = await insertNotification(deps.db, input, adminId, deps.clock())
  announce(deps, [topics.all], { type: 'notification' })
  return presentNotification(row, undefined)
}

export async function editNotification(deps: MessagesDeps, id: number, input: NotificationInput): Promise<Notification> {
  const row = await updateNotification(deps.db, id, input, deps.clock())
  if (!row) throw notFound('messages.notificationNotFound')
  announce(deps, [topics.all], { type: 'notification' })
  return presentNotification(row, undefined)
}

/** Deleting twice answers 404 the second time: nothing is left to delete. */
export async function removeNotification(deps: MessagesDeps, id: number) {
  if (!(await deleteNotification(deps.db, id))) throw notFound('messages.notificationNotFound')
  announce(deps, [topics.all], { type: 'notification' })
}

/**
 * A message from the platform itself (no admin wrote it: e.g. the link checker telling a seller its link
 * is dead, issue 25), written in the caller's transaction; `announce` it once that commits.
 */
export async function systemMessage(tx: MessagesDeps['db'], userId: number, content: string, now: Date) {
  const row = await insertPrivateMessage(tx, { userId, sender: 'admin', senderId: null, content, now })
  const message = presentPrivate(row)
  return { announce: (deps: Pick<MessagesDeps, 'events' | 'log'>) => announce(deps, [topics.admin, topics.user(userId)], { type: 'message', message }) }
}
