import type { ChatStatus, Sender } from '#contract/messages.ts'
import { topics } from '../events/bus.ts'

/** Who is asking about a chat: an account (by token), a visitor holding an order number, or both. */
export type Caller = { userId: number | null; admin: boolean; orderNo: string | null }

/**
 * Whether the caller may see a chat through the buyer's calls (issue 10): the buyer's account, or
 * whoever holds the order number (unguessable; it already opens the bought content). Admins use the
 * /admin calls; anyone else gets 404, never a hint that the chat exists.
 */
export function mayRead(caller: Caller, chat: { buyerId: number | null }, order: { orderNo: string }): boolean {
  if (caller.userId !== null && chat.buyerId === caller.userId) return true
  return caller.orderNo !== null && caller.orderNo === order.orderNo
}

/** Only paid orders have something to complain about (a Refund order is still discussable). */
export const mayOpenChat = (paymentStatus: string) => paymentStatus === 'Completed' || paymentStatus === 'Refund'

/**
 * A status change: admins move a chat anywhere; the buyer may only close it. `repeat` when it already
 * has that status (answered unchanged, so a double submit is harmless).
 */
export function statusMove(from: ChatStatus, to: ChatStatus, by: Sender): 'apply' | 'repeat' | 'forbidden' {
  if (from === to) return 'repeat'
  if (by === 'user' && to !== 'closed') return 'forbidden'
  return 'apply'
}

/** When a chat counts as taken up: the first time it leaves `pending` (an answer or a status change). */
export const processedAtAfter = (current: Date | null, to: ChatStatus, now: Date) => current ?? (to === 'pending' ? null : now)

/** An admin's answer takes a pending chat up; a buyer's line on a closed chat is refused elsewhere. */
export const statusAfterLine = (status: ChatStatus, by: Sender): ChatStatus => (by === 'admin' && status === 'pending' ? 'processing' : status)

/** Who hears about a chat's line or status: every admin, the buyer's account, and the order's own stream. */
export const chatTopics = (chat: { buyerId: number | null; orderId: number }) => [topics.admin, topics.order(chat.orderId), ...(chat.buyerId ? [topics.user(chat.buyerId)] : [])]
