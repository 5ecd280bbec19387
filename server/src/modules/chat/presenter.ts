import { isRefundable } from '#contract/orders.ts'
import type { Chat, ChatMessage } from '#contract/messages.ts'
import { fenToYuan } from '#contract/money.ts'
import type { ChatMessageRow, ChatWithOrder } from './repository.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export function presentChat({ chat, order, username, unread }: ChatWithOrder): Chat {
  return {
    id: chat.id,
    status: chat.status,
    created_at: chat.createdAt.toISOString(),
    processed_at: iso(chat.processedAt),
    last_message_at: chat.lastMessageAt.toISOString(),
    username,
    unread,
    order: {
      orderNo: order.orderNo,
      product_name: order.productName,
      amount: fenToYuan(order.amountFen),
      payment_status: order.paymentStatus,
      paymentMethod: order.paymentMethod,
      paid_at: iso(order.paidAt),
      first_revealed_at: iso(order.firstRevealedAt),
      refunded_at: iso(order.refundedAt),
      refundable: isRefundable({ payment_status: order.paymentStatus, paymentMethod: order.paymentMethod }),
    },
  }
}

export const presentMessage = (m: ChatMessageRow): ChatMessage => ({
  id: m.id,
  chat_id: m.chatId,
  sender: m.sender,
  content: m.content,
  created_at: m.createdAt.toISOString(),
  read_at: iso(m.readAt),
})
