import type { Order } from '#contract/shares.ts'
import { fenToYuan } from '#contract/money.ts'
import type { orders } from '../../db/schema.ts'

// Shares moved to server/src/modules/shares and modules/share (issue 6); the order presenter stays here
// until the orders area moves into its module.
export function presentOrder(
  o: typeof orders.$inferSelect,
  extra: { unicode: string | null; buyerName: string | null; sellerName: string | null },
): Order {
  return {
    id: o.id,
    orderNo: o.orderNo,
    alipayTradeNo: o.providerTradeNo,
    username: extra.buyerName,
    seller_name: extra.sellerName,
    paymentMethod: o.paymentMethod,
    unicode: extra.unicode,
    amount: fenToYuan(o.amountFen),
    fee: o.feeFen === null ? null : fenToYuan(o.feeFen),
    seller_income: o.sellerIncomeFen === null ? null : fenToYuan(o.sellerIncomeFen),
    product_name: o.productName,
    payment_status: o.paymentStatus,
    created_at: o.createdAt.toISOString(),
    paid_at: o.paidAt?.toISOString() ?? null,
    first_revealed_at: o.firstRevealedAt?.toISOString() ?? null,
  }
}
