import type { Database } from '../../db/client.ts'
import type { orders } from '../../db/schema/index.ts'

type OrderRow = typeof orders.$inferSelect

/**
 * What an order of a product the platform sells does beyond the order, said by the module that sells
 * it, in the order's own transaction: the payment opens what it bought, a refund takes it back.
 */
export type ProductEffects = {
  paid(tx: Database, order: OrderRow, now: Date): Promise<void>
  refunded(tx: Database, order: OrderRow, now: Date): Promise<void>
}

/**
 * The effects of orders on other modules' tables (channels, subscriptions), handed to the orders
 * module when the app is built (plugins/app/services.ts): orders call them by product type and never
 * import the modules that sell through them, which import orders to start their orders (decision 118).
 */
export type OrderEffects = {
  channel: ProductEffects
  package: ProductEffects
  /** The fee rate of a share sale paid at `now`: the seller's best open channel, else `defaultBp`. */
  saleFeeRateBp(tx: Database, sellerId: number, now: Date, defaultBp: number): Promise<number>
}
