import { sql } from 'drizzle-orm'
import { bigint, bigserial, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { CHAT_STATUSES, SENDERS } from '../../../../contract/messages.ts'
import { createdAt } from './columns.ts'
import { orders } from './orders.ts'
import { users } from './users.ts'

// After-sales chats (modules/chat).

/** Issue 10: one after-sales chat per order, opened by its buyer (an account, or a visitor by order number). */
export const chats = pgTable(
  'chats',
  {
    id: serial('id').primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    /** The buyer's account when the order has one; null for a visitor's order. */
    buyerId: integer('buyer_id').references(() => users.id),
    status: text('status', { enum: CHAT_STATUSES }).notNull().default('pending'),
    /** When an admin first took it up (→ processing) or closed it. */
    processedAt: timestamp('processed_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chats_order_key').on(t.orderId),
    index('chats_buyer_idx').on(t.buyerId, t.lastMessageAt),
    index('chats_status_idx').on(t.status, t.lastMessageAt),
  ],
)

/** The lines of a chat; `read_at` is when the other side read it. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id),
    sender: text('sender', { enum: SENDERS }).notNull(),
    /** The admin who answered, or the buyer's account (null: a visitor). */
    senderId: integer('sender_id').references(() => users.id),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_chat_idx').on(t.chatId, t.id), index('chat_messages_unread_idx').on(t.sender, t.chatId).where(sql`read_at IS NULL`)],
)
