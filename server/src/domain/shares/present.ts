import type { Order, PublicShare } from '#contract/shares.ts'
import { fenToYuan } from '#contract/money.ts'
import type { orders, shares, users } from '../../db/schema.ts'
import type { ContentCipher } from './content-crypto.ts'

type ShareRow = typeof shares.$inferSelect
type SellerRow = Pick<typeof users.$inferSelect, 'userName' | 'isBanned'>

/** SPEC §3 Share without content. `for_sale`: approved, not deleted, seller not banned. */
export function presentShare(s: ShareRow, seller: SellerRow): PublicShare {
  return {
    id: s.id,
    unicode: s.unicode,
    title: s.title,
    type: s.type,
    price: fenToYuan(s.priceFen),
    user_name: seller.userName,
    visit_count: s.visitCount,
    purchase_count: s.purchaseCount,
    status: s.status,
    subscription_status: s.subscriptionStatus,
    created_at: s.createdAt.toISOString(),
    for_sale: s.status === 'approved' && !s.deletedAt && seller.isBanned !== 1,
  }
}

export function withContent(p: PublicShare, s: ShareRow, cipher: ContentCipher): PublicShare & { content: string; extraction_code: string | null } {
  return { ...p, content: cipher.decrypt(s.contentEnc), extraction_code: s.extractionCodeEnc ? cipher.decrypt(s.extractionCodeEnc) : null }
}

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
