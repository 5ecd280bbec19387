import { and, asc, eq, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { appMeta, orders, shares, users, withdrawals } from './schema/index.ts'
import { lockBalance, postSale, postWithdrawal, withdrawableFen } from '../modules/ledger/index.ts'
import { platformFee } from '../modules/orders/index.ts'
import { serviceFeeFen, type WithdrawalSettings } from '../modules/withdrawals/index.ts'
import { orderTimes } from './factories.ts'

const STEP = 'seed.demo-withdrawals'
const DAY = 24 * 3600 * 1000
/** DESIGN §3 defaults, when the caller does not pass the configured ones. */
const DEFAULTS: WithdrawalSettings = { minFen: 1000, feeBp: 100, feeMinFen: 10 }

/**
 * The demo seller's withdrawals (issue 7): one Completed three days ago, one Pending since two hours,
 * each of the minimum amount, both through the ledger. Runs on every start and does its work once
 * (remembered in app_meta with the withdrawals, in one transaction). When the demo sales do not leave
 * enough withdrawable income for both, settled demo sales of the seller's cheapest approved share are
 * added first.
 */
export async function seedDemoWithdrawals(db: Database, opts: { sellerName: string; withdrawal?: WithdrawalSettings; feeBasisPoints?: number; now?: Date }) {
  const settings = opts.withdrawal ?? DEFAULTS
  const now = opts.now ?? new Date()
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, STEP))
  if (done) return
  const [seller] = await db.select().from(users).where(eq(users.userName, opts.sellerName))
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.id)).limit(1)
  if (!seller?.alipayAccount || !seller.alipayRealName) return
  const amounts = [settings.minFen, settings.minFen]
  const needed = amounts[0]! + amounts[1]!
  await db.transaction(async (tx) => {
    const balance = await lockBalance(tx, seller.id)
    let withdrawable = await withdrawableFen(tx, seller.id, now, balance.balanceFen)
    if (withdrawable < needed) withdrawable += await topUpIncome(tx, seller.id, needed - withdrawable, opts.feeBasisPoints ?? 500, now)
    if (withdrawable < needed) return
    const [completedAt, pendingAt] = [new Date(now.getTime() - 3 * DAY), new Date(now.getTime() - 2 * 3600 * 1000)]
    for (const [amountFen, createdAt, completed] of [
      [amounts[0]!, completedAt, true],
      [amounts[1]!, pendingAt, false],
    ] as const) {
      const feeFen = serviceFeeFen(amountFen, settings)
      const [w] = await tx
        .insert(withdrawals)
        .values({
          userId: seller.id,
          amountFen,
          feeFen,
          actualFen: amountFen - feeFen,
          alipayAccount: seller.alipayAccount!,
          alipayRealName: seller.alipayRealName!,
          status: completed ? 'Completed' : 'Pending',
          createdAt,
          ...(completed
            ? { transactionOrder: `DEMO${createdAt.getTime()}`, payoutMethod: 'manual' as const, processedAt: new Date(createdAt.getTime() + DAY), processedBy: admin?.id ?? null }
            : {}),
        })
        .returning()
      await postWithdrawal(tx, { id: w!.id, userId: seller.id, amountFen }, createdAt)
    }
    await tx.insert(appMeta).values({ key: STEP, value: now.toISOString() })
  })
}

/**
 * Settled demo sales of the seller's cheapest approved share, paid a few days ago, until they earn
 * `shortFen` (at most 50). Returns what they earned.
 */
async function topUpIncome(tx: Database, sellerId: number, shortFen: number, feeBp: number, now: Date): Promise<number> {
  const [share] = await tx
    .select()
    .from(shares)
    .where(and(eq(shares.userId, sellerId), eq(shares.status, 'approved')))
    .orderBy(asc(shares.priceFen))
    .limit(1)
  if (!share) return 0
  const income = share.priceFen - platformFee(share.priceFen, feeBp)
  if (income <= 0) return 0
  let earned = 0
  for (let i = 0; earned < shortFen && i < 50; i++) {
    const times = orderTimes(new Date(now.getTime() - 4 * DAY - i * 3600 * 1000), 'Completed')
    const [order] = await tx
      .insert(orders)
      .values({
        ...times,
        shareId: share.id,
        sellerId,
        productName: share.title,
        amountFen: share.priceFen,
        paymentMethod: 'Alipay',
        provider: 'sandbox',
        paymentStatus: 'Completed',
        providerTradeNo: `SBXDEMOW${times.createdAt.getTime()}`,
        feeFen: share.priceFen - income,
        feeRateBp: feeBp,
        settleAt: new Date(times.paidAt!.getTime() + DAY),
        sellerIncomeFen: income,
      })
      .returning()
    await tx.update(shares).set({ purchaseCount: sql`${shares.purchaseCount} + 1` }).where(eq(shares.id, share.id))
    await postSale(tx, order!, times.paidAt!)
    earned += income
  }
  return earned
}
