import type { PublicShare } from '#contract/shares.ts'
import type { orders } from '../../db/schema/index.ts'
import { presentShare, type ShareWithSeller } from '../shares/index.ts'

/**
 * The share of an order (SPEC §4 share lookup after payment): `third_party_trade_no` is '' until
 * paid, then the gateway's trade number.
 */
export function presentOrderShare(row: ShareWithSeller, order: typeof orders.$inferSelect): PublicShare {
  return {
    ...presentShare(row.share, row.seller),
    payment_status: order.paymentStatus,
    third_party_trade_no: order.paymentStatus === 'Completed' ? (order.providerTradeNo ?? '') : '',
  }
}
