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

/** What this module's use cases take from the app (decision 120). */
type ChatDeps = Pick<FastifyInstance, 'clock' | 'db' | 'events' | 'limits' | 'log'>

type Page = { pageNum: number; pageSize: number }

function requireCaller(caller: Caller) {
  if (provesNothing(caller)) throw unauthorized()
}

/** The chat as the buyer's calls see it, or 404 for anyone else (never a hint that it exists). */
async function buyersChat(deps: ChatDeps, caller: Caller, chatId: number): Promise<ChatWithOrder> {
  requireCaller(caller)
  const found = await findChat(deps.db, chatId, 'user')
  if (!found || !chatIsCallers(caller, found.order)) throw notFound('messages.chatNotFound')
  return found
}

/**
 * The order the caller names (`order_no`) when its chat is the caller's (decision 102), else null —
 * which every call answers as it answers an order that does not exist.
 */
export async function callersOrder(deps: Pick<FastifyInstance, 'db'>, caller: Caller): Promise<OrderRow | null> {
  if (caller.orderNo === null) return null
  const order = await findOrderByNo(deps.db, caller.orderNo)
  return order && chatIsCallers(caller, order) ? order : null
}

/**
 * Opens the chat of a paid order, or finds the one already open (one per order, whoever asks first):
 * for the order's buyer only — its account, or for a visitor's order the browser that created it.
 */
export async function openChat(deps: ChatDeps, caller: Caller): Promise<Chat> {
  const order = await callersOrder(deps, caller)
  if (!order) throw notFound('messages.orderNotFound')
  if (!mayOpenChat(order.paymentStatus)) throw conflict('messages.orderNotPaid', { payment_status: order.paymentStatus })
  const id = await insertChat(deps.db, order, deps.clock())
  return presentChat((await findChat(deps.db, id, 'user'))!)
}

/** The caller's chats: with `order_no`, that order's when it is the caller's; else the account's. */
export async function chatList(deps: ChatDeps, caller: Caller, page: Page) {
  requireCaller(caller)
  const empty = { list: [], total: 0, ...page }
  let scope: { buyerId?: number; orderId?: number }
  if (caller.orderNo !== null) {
    const order = await callersOrder(deps, caller)
    if (!order) return empty
    scope = { orderId: order.id }
  } else if (caller.userId !== null) scope = { buyerId: caller.userId }
  else return empty
  const { rows, total } = await listChats(deps.db, scope, 'user', page)
  return { list: rows.map(presentChat), total, ...page }
}

export async function adminChatList(deps: ChatDeps, q: Page & { status?: ChatStatus; keyword?: string }) {
  const { rows, total } = await listChats(deps.db, { status: q.status, keyword: q.keyword }, 'admin', q)
  return { list: rows.map(presentChat), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

/** A page of lines, newest first (SPEC §4 is_end); reading it marks the other side's lines read. */
async function details(deps: ChatDeps, found: ChatWithOrder, reader: Sender, page: Page, readTopics: string[]): Promise<ChatDetails> {
  const changed = await markRead(deps.db, { chatId: found.chat.id }, reader, deps.clock())
  if (changed) announce(deps, readTopics, { type: 'read' })
  const { rows, isEnd } = await messagePage(deps.db, found.chat.id, page)
  const fresh = (await findChat(deps.db, found.chat.id, reader))!
  return { ...presentChat(fresh), list: rows.map(presentMessage), is_end: isEnd, ...page }
}

export async function buyerDetails(deps: ChatDeps, caller: Caller, chatId: number, page: Page) {
  const found = await buyersChat(deps, caller, chatId)
  return details(deps, found, 'user', page, chatTopics(found.chat).filter((t) => t !== topics.admin))
}

export async function adminDetails(deps: ChatDeps, chatId: number, page: Page) {
  const found = await findChat(deps.db, chatId, 'admin')
  if (!found) throw notFound('messages.chatNotFound')
  return details(deps, found, 'admin', page, [topics.admin])
}

/** The key a writer's lines are counted under: their account, else the order whose browser they are. */
const writerKey = (caller: Caller, chat: { orderId: number }) => (caller.userId !== null ? `u${caller.userId}` : `o${chat.orderId}`)

/**
 * A line in a chat: an admin answers any chat (a pending one becomes processing); the buyer writes in
 * their own. A closed chat takes no more lines until an admin reopens it.
 */
export async function sendLine(deps: ChatDeps, caller: Caller, chatId: number, content: string): Promise<ChatMessage> {
  requireCaller(caller)
  const by: Sender = caller.admin ? 'admin' : 'user'
  const found = by === 'admin' ? await findChat(deps.db, chatId, 'admin') : await buyersChat(deps, caller, chatId)
  if (!found) throw notFound('messages.chatNotFound')
  await spendMessagePoint(deps, writerKey(caller, found.chat))
  const row = await deps.db.transaction(async (tx) => {
    const now = deps.clock()
    // Row lock: a line and a concurrent close are applied one after the other.
    const locked = await lockChat(tx, chatId)
    if (!locked) throw notFound('messages.chatNotFound')
    if (locked.status === 'closed') throw conflict('messages.chatClosed')
    const status = statusAfterLine(locked.status, by)
    await updateChat(tx, chatId, { lastMessageAt: now, status, processedAt: processedAtAfter(locked.processedAt, status, now) })
    return insertMessage(tx, { chatId, sender: by, senderId: caller.userId, content, now })
  })
  const message = presentMessage(row)
  announce(deps, chatTopics(found.chat), { type: 'chat', chat_id: chatId, message })
  return message
}

export async function changeStatus(deps: ChatDeps, caller: Caller, chatId: number, to: ChatStatus): Promise<Chat> {
  requireCaller(caller)
  const by: Sender = caller.admin ? 'admin' : 'user'
  const reader = by
  if (by === 'user') await buyersChat(deps, caller, chatId)
  const result = await deps.db.transaction(async (tx) => {
    // Row lock: two admins changing the status at once apply one after the other.
    const locked = await lockChat(tx, chatId)
    if (!locked) throw notFound('messages.chatNotFound')
    const move = statusMove(locked.status, to, by)
    if (move === 'forbidden') throw forbidden('messages.buyerMayOnlyClose')
    if (move === 'repeat') return false
    await updateChat(tx, chatId, { status: to, processedAt: processedAtAfter(locked.processedAt, to, deps.clock()) })
    return true
  })
  const fresh = (await findChat(deps.db, chatId, reader))!
  if (result) announce(deps, chatTopics(fresh.chat), { type: 'chatStatus', chat_id: chatId, status: to })
  return presentChat(fresh)
}

/** Marks the platform's lines read: with `order_no`, in that order's chat when it is the caller's; else in the account's chats. */
export async function markAllChatsRead(deps: ChatDeps, caller: Caller) {
  requireCaller(caller)
  const now = deps.clock()
  let changed = 0
  if (caller.orderNo !== null) {
    const order = await callersOrder(deps, caller)
    if (order) changed = await markRead(deps.db, { orderId: order.id }, 'user', now)
  } else if (caller.userId !== null) changed = await markRead(deps.db, { buyerId: caller.userId }, 'user', now)
  if (changed && caller.userId !== null) announce(deps, [topics.user(caller.userId)], { type: 'read' })
}

/** The navbar's counts: a visitor's are those of its order's chat; an admin's chat lines are every buyer's. */
export async function unreadCounts(deps: ChatDeps, caller: Caller): Promise<Unread> {
  requireCaller(caller)
  if (caller.userId === null) {
    const order = await callersOrder(deps, caller)
    return { chats: order ? await unreadChatLines(deps.db, { orderId: order.id }) : 0, messages: 0, notifications: 0 }
  }
  const [chats, rest] = await Promise.all([
    caller.admin ? unreadChatLines(deps.db, { admin: true }) : unreadChatLines(deps.db, { buyerId: caller.userId }),
    unreadMessageCounts(deps, caller.userId, caller.admin),
  ])
  return { chats, ...rest }
}
