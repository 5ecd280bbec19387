import type { FastifyInstance } from 'fastify'
import type { Chat, ChatDetails, ChatMessage, ChatStatus, Sender, Unread } from '#contract/messages.ts'
import { conflict, forbidden, notFound, unauthorized } from '../../errors.ts'
import { announce, topics } from '../bus/index.ts'
import { spendMessagePoint, unreadMessageCounts } from '../messages/index.ts'
import { presentChat, presentMessage } from './presenter.ts'
import {
  type ChatWithOrder,
  findChat,
  findOrderByNo,
  insertChat,
  insertMessage,
  listChats,
  lockChat,
  markRead,
  messagePage,
  type OrderRow,
  unreadChatLines,
  updateChat,
} from './repository.ts'
import { type Caller, chatIsCallers, chatTopics, mayOpenChat, processedAtAfter, provesNothing, statusAfterLine, statusMove } from './rules.ts'

type Page = { pageNum: number; pageSize: number }

function requireCaller(caller: Caller) {
  if (provesNothing(caller)) throw unauthorized()
}

/** The chat as the buyer's calls see it, or 404 for anyone else (never a hint that it exists). */
async function buyersChat(app: FastifyInstance, caller: Caller, chatId: number): Promise<ChatWithOrder> {
  requireCaller(caller)
  const found = await findChat(app.db, chatId, 'user')
  if (!found || !chatIsCallers(caller, found.order)) throw notFound('messages.chatNotFound')
  return found
}

/**
 * The order the caller names (`order_no`) when its chat is the caller's (decision 102), else null —
 * which every call answers as it answers an order that does not exist.
 */
export async function callersOrder(app: Pick<FastifyInstance, 'db'>, caller: Caller): Promise<OrderRow | null> {
  if (caller.orderNo === null) return null
  const order = await findOrderByNo(app.db, caller.orderNo)
  return order && chatIsCallers(caller, order) ? order : null
}

/**
 * Opens the chat of a paid order, or finds the one already open (one per order, whoever asks first):
 * for the order's buyer only — its account, or for a visitor's order the browser that created it.
 */
export async function openChat(app: FastifyInstance, caller: Caller): Promise<Chat> {
  const order = await callersOrder(app, caller)
  if (!order) throw notFound('messages.orderNotFound')
  if (!mayOpenChat(order.paymentStatus)) throw conflict('messages.orderNotPaid', { payment_status: order.paymentStatus })
  const id = await insertChat(app.db, order, app.clock())
  return presentChat((await findChat(app.db, id, 'user'))!)
}

/** The caller's chats: with `order_no`, that order's when it is the caller's; else the account's. */
export async function chatList(app: FastifyInstance, caller: Caller, page: Page) {
  requireCaller(caller)
  const empty = { list: [], total: 0, ...page }
  let scope: { buyerId?: number; orderId?: number }
  if (caller.orderNo !== null) {
    const order = await callersOrder(app, caller)
    if (!order) return empty
    scope = { orderId: order.id }
  } else if (caller.userId !== null) scope = { buyerId: caller.userId }
  else return empty
  const { rows, total } = await listChats(app.db, scope, 'user', page)
  return { list: rows.map(presentChat), total, ...page }
}

export async function adminChatList(app: FastifyInstance, q: Page & { status?: ChatStatus; keyword?: string }) {
  const { rows, total } = await listChats(app.db, { status: q.status, keyword: q.keyword }, 'admin', q)
  return { list: rows.map(presentChat), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/** A page of lines, newest first (SPEC §4 is_end); reading it marks the other side's lines read. */
async function details(app: FastifyInstance, found: ChatWithOrder, reader: Sender, page: Page, readTopics: string[]): Promise<ChatDetails> {
  const changed = await markRead(app.db, { chatId: found.chat.id }, reader, app.clock())
  if (changed) announce(app, readTopics, { type: 'read' })
  const { rows, isEnd } = await messagePage(app.db, found.chat.id, page)
  const fresh = (await findChat(app.db, found.chat.id, reader))!
  return { ...presentChat(fresh), list: rows.map(presentMessage), is_end: isEnd, ...page }
}

export async function buyerDetails(app: FastifyInstance, caller: Caller, chatId: number, page: Page) {
  const found = await buyersChat(app, caller, chatId)
  return details(app, found, 'user', page, chatTopics(found.chat).filter((t) => t !== topics.admin))
}

export async function adminDetails(app: FastifyInstance, chatId: number, page: Page) {
  const found = await findChat(app.db, chatId, 'admin')
  if (!found) throw notFound('messages.chatNotFound')
  return details(app, found, 'admin', page, [topics.admin])
}

/** The key a writer's lines are counted under: their account, else the order whose browser they are. */
const writerKey = (caller: Caller, chat: { orderId: number }) => (caller.userId !== null ? `u${caller.userId}` : `o${chat.orderId}`)

/**
 * A line in a chat: an admin answers any chat (a pending one becomes processing); the buyer writes in
 * their own. A closed chat takes no more lines until an admin reopens it.
 */
export async function sendLine(app: FastifyInstance, caller: Caller, chatId: number, content: string): Promise<ChatMessage> {
  requireCaller(caller)
  const by: Sender = caller.admin ? 'admin' : 'user'
  const found = by === 'admin' ? await findChat(app.db, chatId, 'admin') : await buyersChat(app, caller, chatId)
  if (!found) throw notFound('messages.chatNotFound')
  await spendMessagePoint(app, writerKey(caller, found.chat))
  const row = await app.db.transaction(async (tx) => {
    const now = app.clock()
    // Row lock: a line and a concurrent close are applied one after the other.
    const locked = await lockChat(tx, chatId)
    if (!locked) throw notFound('messages.chatNotFound')
    if (locked.status === 'closed') throw conflict('messages.chatClosed')
    const status = statusAfterLine(locked.status, by)
    await updateChat(tx, chatId, { lastMessageAt: now, status, processedAt: processedAtAfter(locked.processedAt, status, now) })
    return insertMessage(tx, { chatId, sender: by, senderId: caller.userId, content, now })
  })
  const message = presentMessage(row)
  announce(app, chatTopics(found.chat), { type: 'chat', chat_id: chatId, message })
  return message
}

export async function changeStatus(app: FastifyInstance, caller: Caller, chatId: number, to: ChatStatus): Promise<Chat> {
  requireCaller(caller)
  const by: Sender = caller.admin ? 'admin' : 'user'
  const reader = by
  if (by === 'user') await buyersChat(app, caller, chatId)
  const result = await app.db.transaction(async (tx) => {
    // Row lock: two admins changing the status at once apply one after the other.
    const locked = await lockChat(tx, chatId)
    if (!locked) throw notFound('messages.chatNotFound')
    const move = statusMove(locked.status, to, by)
    if (move === 'forbidden') throw forbidden('messages.buyerMayOnlyClose')
    if (move === 'repeat') return false
    await updateChat(tx, chatId, { status: to, processedAt: processedAtAfter(locked.processedAt, to, app.clock()) })
    return true
  })
  const fresh = (await findChat(app.db, chatId, reader))!
  if (result) announce(app, chatTopics(fresh.chat), { type: 'chatStatus', chat_id: chatId, status: to })
  return presentChat(fresh)
}

/** Marks the platform's lines read: with `order_no`, in that order's chat when it is the caller's; else in the account's chats. */
export async function markAllChatsRead(app: FastifyInstance, caller: Caller) {
  requireCaller(caller)
  const now = app.clock()
  let changed = 0
  if (caller.orderNo !== null) {
    const order = await callersOrder(app, caller)
    if (order) changed = await markRead(app.db, { orderId: order.id }, 'user', now)
  } else if (caller.userId !== null) changed = await markRead(app.db, { buyerId: caller.userId }, 'user', now)
  if (changed && caller.userId !== null) announce(app, [topics.user(caller.userId)], { type: 'read' })
}

/** The navbar's counts: a visitor's are those of its order's chat; an admin's chat lines are every buyer's. */
export async function unreadCounts(app: FastifyInstance, caller: Caller): Promise<Unread> {
  requireCaller(caller)
  if (caller.userId === null) {
    const order = await callersOrder(app, caller)
    return { chats: order ? await unreadChatLines(app.db, { orderId: order.id }) : 0, messages: 0, notifications: 0 }
  }
  const [chats, rest] = await Promise.all([
    caller.admin ? unreadChatLines(app.db, { admin: true }) : unreadChatLines(app.db, { buyerId: caller.userId }),
    unreadMessageCounts(app, caller.userId, caller.admin),
  ])
  return { chats, ...rest }
}
