import { z } from 'zod'
import { orderNoSchema } from './codes.ts'
import { endpoint, nothing, pageOf, timestamp } from './http.ts'
import { idSchema, pageQuerySchema } from './users.ts'

// Issue 10: private messages (user ⇄ platform), system notifications, the after-sales chat of an order
// and the live event stream. Message text is plain text: the console shows it as text and makes links
// clickable, never as HTML.

/** The longest message, chat line or notification body (issue 10). */
export const MESSAGE_MAX = 2000
export const TITLE_MAX = 100

/** Trimmed plain text of 1–2,000 characters; control characters other than newlines and tabs are refused. */
export const messageTextSchema = z
  .string({ error: 'messages.contentRequired' })
  .trim()
  .min(1, { error: 'messages.contentRequired', abort: true })
  .max(MESSAGE_MAX, { error: 'messages.contentTooLong', abort: true })
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s), 'messages.contentInvalid')

/**
 * Whose a chat is (decision 102, superseding 079): the chat of an order with a buyer account opens only
 * to that account (its token) and to admins (the /admin calls). The chat of a visitor's order (no
 * account) opens only to the browser that created the order: `order_no` names the order — in the query
 * of GET calls, in the body of POST calls, and on `GET /api/events` — and the order's buyer key proves
 * it, in the `x-buyer-key` header (BUYER_KEY_HEADER), never in a URL or a body. The order number alone
 * proves nothing (the seller sees its sales), and a request with the seller's token never is the buyer.
 * Anyone else gets what a chat that does not exist gets: 404, an empty list, zero unread.
 */
const visitorProof = { order_no: orderNoSchema.optional() }

/** SPEC §4 chat statuses. */
export const CHAT_STATUSES = ['pending', 'processing', 'closed'] as const
export type ChatStatus = (typeof CHAT_STATUSES)[number]
export const chatStatusSchema = z.enum(CHAT_STATUSES, { error: 'messages.statusInvalid' })

export const CHAT_STATUS_VIEW = {
  pending: { color: 'orange', label: 'messages.status.pending' },
  processing: { color: 'blue', label: 'messages.status.processing' },
  closed: { color: 'gray', label: 'messages.status.closed' },
} as const satisfies Record<ChatStatus, { color: string; label: `messages.status.${ChatStatus}` }>

/** Who wrote a chat line or private message: the buyer / user, or the platform (an admin). */
export const SENDERS = ['user', 'admin'] as const
export type Sender = (typeof SENDERS)[number]

export const chatMessageSchema = z.object({
  id: z.number().int(),
  chat_id: z.number().int(),
  sender: z.enum(SENDERS),
  content: z.string(),
  created_at: timestamp,
  /** When the other side read it (null: unread). */
  read_at: timestamp.nullable(),
})
export type ChatMessage = z.infer<typeof chatMessageSchema>

/** What the admin sees of the order a chat is about: evidence for the dispute (issue 10). */
export const chatOrderSchema = z.object({
  orderNo: z.string(),
  product_name: z.string(),
  amount: z.number(),
  payment_status: z.string(),
  paymentMethod: z.string(),
  paid_at: timestamp.nullable(),
  first_revealed_at: timestamp.nullable(),
  refunded_at: timestamp.nullable(),
  refundable: z.boolean(),
})

export const chatSchema = z.object({
  id: z.number().int(),
  status: chatStatusSchema,
  created_at: timestamp,
  processed_at: timestamp.nullable(),
  last_message_at: timestamp,
  /** The buyer's user name; null for a visitor who bought without an account. */
  username: z.string().nullable(),
  order: chatOrderSchema,
  /** Lines of the other side the caller has not read. */
  unread: z.number().int(),
})
export type Chat = z.infer<typeof chatSchema>

/** SPEC §3/§7 chat details: one page of messages, newest first; `is_end`: no older messages exist. */
export const chatDetailsSchema = chatSchema.extend({
  list: z.array(chatMessageSchema),
  is_end: z.boolean(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
})
export type ChatDetails = z.infer<typeof chatDetailsSchema>

const chatIdSchema = z.object({ chat_id: idSchema })
export const chatCreateSchema = z.object({ order_no: orderNoSchema })
export const chatDetailsQuerySchema = pageQuerySchema.extend({ chat_id: idSchema, ...visitorProof })
export const chatListQuerySchema = pageQuerySchema.extend(visitorProof)
export const adminChatListQuerySchema = pageQuerySchema.extend({
  status: chatStatusSchema.optional(),
  /** An order number or a buyer's user name (part of it). */
  keyword: z.string().trim().max(100, 'validation.tooLong').optional(),
})
export const chatSendSchema = chatIdSchema.extend({ content: messageTextSchema, ...visitorProof })
export const chatStatusUpdateSchema = chatIdSchema.extend({ status: chatStatusSchema, ...visitorProof })
export const chatMarkReadSchema = z.object(visitorProof).optional()
export const unreadQuerySchema = z.object(visitorProof)

export const unreadSchema = z.object({
  /** Chat lines of the other side not yet read (for an admin: of every buyer). */
  chats: z.number().int(),
  /** Private messages not yet read. */
  messages: z.number().int(),
  /** Notifications published since the caller last marked them read. */
  notifications: z.number().int(),
})
export type Unread = z.infer<typeof unreadSchema>

/** A private message between one user and the platform. */
export const privateMessageSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  username: z.string(),
  sender: z.enum(SENDERS),
  content: z.string(),
  created_at: timestamp,
  read_at: timestamp.nullable(),
})
export type PrivateMessage = z.infer<typeof privateMessageSchema>

export const messageListQuerySchema = pageQuerySchema
/** Admin: one user's conversation (user_id) or the newest messages of everyone. */
export const adminMessageListQuerySchema = pageQuerySchema.extend({ user_id: idSchema.optional() })
/** A user replies to the platform. */
export const messageSendSchema = z.object({ content: messageTextSchema })
/** An admin writes to one user, chosen by user name. */
export const adminMessageSendSchema = z.object({
  username: z.string({ error: 'messages.usernameRequired' }).trim().min(1, 'messages.usernameRequired').max(100, 'validation.tooLong'),
  content: messageTextSchema,
})

/** SPEC §3 Notification. */
export const LABEL_COLORS = ['blue', 'orangered', 'cyan'] as const
export const labelColorSchema = z.enum(LABEL_COLORS, { error: 'messages.labelColorInvalid' })
export const PRIORITY_MAX = 999
export const prioritySchema = z.coerce
  .number({ error: 'messages.priorityInvalid' })
  .int('messages.priorityInvalid')
  .min(0, 'messages.priorityInvalid')
  .max(PRIORITY_MAX, 'messages.priorityInvalid')

export const notificationInputSchema = z.object({
  title: z.string({ error: 'messages.titleRequired' }).trim().min(1, { error: 'messages.titleRequired', abort: true }).max(TITLE_MAX, 'messages.titleTooLong'),
  priority: prioritySchema,
  content: messageTextSchema,
  label_color: labelColorSchema,
})
export const notificationUpdateSchema = notificationInputSchema.extend({ id: idSchema })

export const notificationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  priority: z.number().int(),
  content: z.string(),
  label_color: labelColorSchema,
  created_at: timestamp,
  updated_at: timestamp,
  /** For a user: published after they last marked notifications read. */
  unread: z.boolean(),
})
export type Notification = z.infer<typeof notificationSchema>

/**
 * What `GET /api/events` streams (server-sent events; `event:` is the type, `data:` this JSON): a new
 * chat line, a chat's new status, a private message, a notification change. Each is a hint to
 * show the line or refetch the unread counts; the database stays the source of truth.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chat'), chat_id: z.number().int(), message: chatMessageSchema }),
  z.object({ type: z.literal('chatStatus'), chat_id: z.number().int(), status: chatStatusSchema }),
  z.object({ type: z.literal('message'), message: privateMessageSchema }),
  z.object({ type: z.literal('notification') }),
  z.object({ type: z.literal('read') }),
])
export type LiveEvent = z.infer<typeof liveEventSchema>

export const chatApi = {
  create: endpoint({
    method: 'POST',
    path: '/api/afterSalesChat/create',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: 'Open (or find) the after-sales chat of a paid order: its buyer by token, a visitor by order_no and its x-buyer-key',
    body: chatCreateSchema,
    response: chatSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/afterSalesChat/list',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: "The caller's chats (with order_no: that order's, when it is the caller's), newest activity first",
    query: chatListQuerySchema,
    response: pageOf(chatSchema),
  }),
  details: endpoint({
    method: 'GET',
    path: '/api/afterSalesChat/details',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: 'One page of a chat, newest first (is_end: no older page); marks the platform lines read',
    query: chatDetailsQuerySchema,
    response: chatDetailsSchema,
  }),
  unread: endpoint({
    method: 'GET',
    path: '/api/afterSalesChat/getUnreadMessageCount',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: "The caller's unread chat lines, private messages and notifications (a visitor's: of its order's chat)",
    query: unreadQuerySchema,
    response: unreadSchema,
  }),
  send: endpoint({
    method: 'POST',
    path: '/api/afterSalesChat/sendMessage',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: 'Write in a chat (the buyer, or an admin); plain text, rate-limited',
    body: chatSendSchema,
    response: chatMessageSchema,
  }),
  markAllRead: endpoint({
    method: 'POST',
    path: '/api/afterSalesChat/markAllChatsAsRead',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: "Marks the platform's lines in the caller's chats read (with order_no: that order's chat, when it is the caller's)",
    body: chatMarkReadSchema,
    response: nothing,
  }),
  updateStatus: endpoint({
    method: 'POST',
    path: '/api/afterSalesChat/updateChatStatus',
    access: 'optional',
    tag: 'afterSalesChat',
    summary: 'Change a chat status: an admin to any status; the buyer may only close it',
    body: chatStatusUpdateSchema,
    response: chatSchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/afterSalesChat/admin/list',
    access: 'admin',
    tag: 'afterSalesChat',
    summary: 'Every chat, by status, order number or buyer, newest activity first',
    query: adminChatListQuerySchema,
    response: pageOf(chatSchema),
  }),
  adminDetails: endpoint({
    method: 'GET',
    path: '/api/afterSalesChat/admin/details',
    access: 'admin',
    tag: 'afterSalesChat',
    summary: "One page of any chat with its order's evidence; marks the buyer's lines read",
    query: chatDetailsQuerySchema.omit({ order_no: true }),
    response: chatDetailsSchema,
  }),
}

export const messagesApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/messages/list',
    access: 'user',
    tag: 'messages',
    summary: "The caller's conversation with the platform, newest first",
    query: messageListQuerySchema,
    response: pageOf(privateMessageSchema),
  }),
  send: endpoint({
    method: 'POST',
    path: '/api/messages/send',
    access: 'user',
    tag: 'messages',
    summary: 'Reply to the platform (plain text, rate-limited)',
    body: messageSendSchema,
    response: privateMessageSchema,
  }),
  markAllRead: endpoint({
    method: 'POST',
    path: '/api/messages/markAllRead',
    access: 'user',
    tag: 'messages',
    summary: "Marks the caller's private messages and every notification read",
    response: nothing,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/messages/admin/list',
    access: 'admin',
    tag: 'messages',
    summary: "Private messages: one user's conversation, or everyone's newest; reading marks the users' lines read",
    query: adminMessageListQuerySchema,
    response: pageOf(privateMessageSchema),
  }),
  adminSend: endpoint({
    method: 'POST',
    path: '/api/messages/admin/send',
    access: 'admin',
    tag: 'messages',
    summary: 'Write to one user by user name',
    body: adminMessageSendSchema,
    response: privateMessageSchema,
  }),
}

export const notificationsApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/notifications/list',
    access: 'user',
    tag: 'notifications',
    summary: 'System notifications, highest priority first',
    query: pageQuerySchema,
    response: pageOf(notificationSchema),
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/notifications/admin/list',
    access: 'admin',
    tag: 'notifications',
    summary: 'Every notification, highest priority first',
    query: pageQuerySchema,
    response: pageOf(notificationSchema),
  }),
  adminCreate: endpoint({
    method: 'POST',
    path: '/api/notifications/admin/create',
    access: 'admin',
    tag: 'notifications',
    summary: 'Publish a notification to every user',
    body: notificationInputSchema,
    response: notificationSchema,
  }),
  adminUpdate: endpoint({
    method: 'POST',
    path: '/api/notifications/admin/update',
    access: 'admin',
    tag: 'notifications',
    summary: 'Edit a notification',
    body: notificationUpdateSchema,
    response: notificationSchema,
  }),
  adminDelete: endpoint({
    method: 'GET',
    path: '/api/notifications/admin/delete',
    access: 'admin',
    tag: 'notifications',
    summary: 'Delete a notification (SPEC keeps it a GET with ?id=)',
    query: z.object({ id: idSchema }),
    response: nothing,
  }),
}

/**
 * The live stream (server-sent events, not a JSON endpoint): a user's by token (their own topics, the
 * admins' when an admin, and notifications), a visitor's by `order_no` and the order's buyer key in the
 * `x-buyer-key` header (that order's chat only; 404 as for an unknown order otherwise).
 */
export const EVENTS_PATH = '/api/events'
/**
 * The last words of a live stream whose server is stopping (the API's and the console's): reconnect
 * soon (`retry:`, ms) — through the load balancer, to another instance — and a comment saying why. The
 * browser's EventSource reconnects with `Last-Event-ID` and is sent what it missed (decision 138).
 */
export const SSE_GOODBYE = 'retry: 1000\n: reconnect, this instance is stopping\n\n'
export const eventsQuerySchema = z.object(visitorProof)
