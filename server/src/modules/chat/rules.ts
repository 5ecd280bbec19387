import type { ChatStatus, Sender } from '#contract/messages.ts'
import { topics } from '../bus/index.ts'
import { type BuyerSide, buyerProof } from '../orders/index.ts'

/**
 * Who is asking about a chat: an account (by token); the order a visitor names (`order_no`) and the
 * buyer key its browser sends (header `x-buyer-key`); or both.
 */
export type Caller = { userId: number | null; admin: boolean; orderNo: string | null; buyerKey: string | null }

/** Nothing that could name a chat or a buyer: 401 (anything else that proves nothing gets 404). */
export const provesNothing = (caller: Caller) => caller.userId === null && caller.orderNo === null && caller.buyerKey === null

/**
 * Whether an order's chat is the caller's through the buyer's calls (decision 102, superseding 079):
 * the chat of an order with a buyer account opens only to that account; the chat of a visitor's order
 * only to the browser that created the order (its buyer key). The order number proves nothing — the
 * seller sees its sales — and the seller's account never is the buyer. Admins use the /admin calls;
 * anyone else gets what a chat that does not exist gets.
 */
export function chatIsCallers(caller: Caller, order: BuyerSide): boolean {
  const proof = buyerProof(order, { userId: caller.userId, buyerKey: caller.buyerKey })
  return order.buyerId !== null ? proof === 'account' : proof === 'browser'
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
