import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { chatMessages, chats, orders, users } from '../../db/schema/index.ts'
import type { ChatStatus, Sender } from '#contract/messages.ts'
import { type PageQuery, pageWindow, readPage } from '../../db/paging.ts'

export type ChatRow = typeof chats.$inferSelect
export type OrderRow = typeof orders.$inferSelect
export type ChatMessageRow = typeof chatMessages.$inferSelect
export type ChatWithOrder = { chat: ChatRow; order: OrderRow; username: string | null; unread: number }

/** The lines of `side`'s counterpart the reader has not read: an admin reads the user's, a user the admin's. */
const unreadOf = (reader: Sender) =>
  sql<number>`(select count(*)::int from ${chatMessages} m where m.chat_id = ${chats.id} and m.read_at is null and m.sender = ${reader === 'admin' ? 'user' : 'admin'})`

const withOrder = (db: Database, reader: Sender) =>
  db
    .select({ chat: chats, order: orders, username: users.userName, unread: unreadOf(reader) })
    .from(chats)
    .innerJoin(orders, eq(orders.id, chats.orderId))
    .leftJoin(users, eq(users.id, chats.buyerId))

export async function findChat(db: Database, id: number, reader: Sender): Promise<ChatWithOrder | undefined> {
  const [row] = await withOrder(db, reader).where(eq(chats.id, id))
  return row
}

export async function findOrderByNo(db: Database, orderNo: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
  return row
}

/** One chat per order: a second opening (or a concurrent one) finds the first. */
export async function insertChat(db: Database, order: OrderRow, now: Date): Promise<number> {
  await db
    .insert(chats)
    .values({ orderId: order.id, buyerId: order.buyerId, status: 'pending', lastMessageAt: now, createdAt: now })
    .onConflictDoNothing({ target: chats.orderId })
  const [row] = await db.select({ id: chats.id }).from(chats).where(eq(chats.orderId, order.id))
  return row!.id
}

export type ChatScope = { buyerId?: number; orderId?: number; status?: ChatStatus; keyword?: string }

export async function listChats(db: Database, scope: ChatScope, reader: Sender, page: PageQuery) {
  const where: SQL[] = []
  if (scope.buyerId !== undefined) where.push(eq(chats.buyerId, scope.buyerId))
  if (scope.orderId !== undefined) where.push(eq(chats.orderId, scope.orderId))
  if (scope.status) where.push(eq(chats.status, scope.status))
  if (scope.keyword) where.push(or(eq(orders.orderNo, scope.keyword), ilike(users.userName, `%${scope.keyword.replace(/[\\%_]/g, '\\$&')}%`))!)
  const cond = where.length ? and(...where) : undefined
  return readPage(
    page,
    withOrder(db, reader).where(cond).orderBy(desc(chats.lastMessageAt), desc(chats.id)),
    db.select({ n: count() }).from(chats).innerJoin(orders, eq(orders.id, chats.orderId)).leftJoin(users, eq(users.id, chats.buyerId)).where(cond),
  )
}

/** One page, newest first, and whether an older one exists (one row more is read to know). */
export async function messagePage(db: Database, chatId: number, page: PageQuery) {
  const { limit, offset } = pageWindow(page)
  const rows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(desc(chatMessages.id))
    .limit(limit + 1)
    .offset(offset)
  return { rows: rows.slice(0, page.pageSize), isEnd: rows.length <= page.pageSize }
}

/** Marks the counterpart's lines read; answers how many changed. */
export async function markRead(db: Database, where: { chatId?: number; buyerId?: number; orderId?: number }, reader: Sender, now: Date): Promise<number> {
  const scope: SQL[] = []
  if (where.chatId !== undefined) scope.push(eq(chats.id, where.chatId))
  if (where.buyerId !== undefined) scope.push(eq(chats.buyerId, where.buyerId))
  if (where.orderId !== undefined) scope.push(eq(chats.orderId, where.orderId))
  const changed = await db
    .update(chatMessages)
    .set({ readAt: now })
    .where(
      and(
        isNull(chatMessages.readAt),
        eq(chatMessages.sender, reader === 'admin' ? 'user' : 'admin'),
        sql`${chatMessages.chatId} in (select ${chats.id} from ${chats} where ${and(...scope)})`,
      ),
    )
    .returning({ id: chatMessages.id })
  return changed.length
}

export async function insertMessage(db: Database, m: { chatId: number; sender: Sender; senderId: number | null; content: string; now: Date }) {
  const [row] = await db.insert(chatMessages).values({ chatId: m.chatId, sender: m.sender, senderId: m.senderId, content: m.content, createdAt: m.now }).returning()
  return row!
}

export async function updateChat(db: Database, id: number, set: Partial<Pick<ChatRow, 'status' | 'processedAt' | 'lastMessageAt'>>) {
  await db.update(chats).set(set).where(eq(chats.id, id))
}

/** Unread chat lines: a buyer's (admin lines in their chats / in one order's chat) or every buyer line for admins. */
export async function unreadChatLines(db: Database, scope: { buyerId?: number; orderId?: number; admin?: boolean }): Promise<number> {
  const reader: Sender = scope.admin ? 'admin' : 'user'
  const where: SQL[] = [isNull(chatMessages.readAt), eq(chatMessages.sender, reader === 'admin' ? 'user' : 'admin')]
  if (scope.buyerId !== undefined) where.push(eq(chats.buyerId, scope.buyerId))
  if (scope.orderId !== undefined) where.push(eq(chats.orderId, scope.orderId))
  const [row] = await db.select({ n: count() }).from(chatMessages).innerJoin(chats, eq(chats.id, chatMessages.chatId)).where(and(...where))
  return row?.n ?? 0
}

export async function lockChat(db: Database, id: number): Promise<ChatRow | undefined> {
  const [row] = await db.select().from(chats).where(eq(chats.id, id)).for('update')
  return row
}
