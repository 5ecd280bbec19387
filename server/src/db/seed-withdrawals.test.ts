import crypto from 'node:crypto'
import { eq, sum } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../test/helpers.ts'
import { withdrawableFen } from '../modules/ledger/service.ts'
import { ledgerEntries, orders, users, withdrawals } from './schema/index.ts'
import { DEMO_SELLER, seed } from './seed.ts'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function seeded(withdrawal?: { minFen: number; feeBp: number; feeMinFen: number }) {
  const handle = await openTestDatabase()
  close = handle.close
  const opts = { adminPassword: 'Admin@2026', demo: true, contentKey: crypto.randomBytes(32).toString('base64'), feeBasisPoints: 500, withdrawal }
  await seed(handle.db, opts)
  const [seller] = await handle.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
  return { db: handle.db, seller: seller!, again: () => seed(handle.db, opts) }
}

const ledgerSum = async (db: Awaited<ReturnType<typeof seeded>>['db'], sellerId: number) =>
  Number((await db.select({ s: sum(ledgerEntries.amountFen) }).from(ledgerEntries).where(eq(ledgerEntries.sellerId, sellerId)))[0]?.s ?? 0)

describe('the demo withdrawals seed', () => {
  it('gives demo_seller one Completed and one Pending withdrawal of the minimum, through the ledger, once', async () => {
    const { db, seller, again } = await seeded()
    const rows = await db.select().from(withdrawals).where(eq(withdrawals.userId, seller.id))
    expect(rows.map((w) => [w.status, w.amountFen, w.feeFen, w.actualFen]).sort()).toEqual([
      ['Completed', 1000, 10, 990],
      ['Pending', 1000, 10, 990],
    ])
    const completed = rows.find((w) => w.status === 'Completed')!
    expect(completed).toMatchObject({ payoutMethod: 'manual', alipayAccount: seller.alipayAccount, alipayRealName: seller.alipayRealName })
    expect(completed.transactionOrder).toBeTruthy()
    expect(completed.processedAt!.getTime()).toBeGreaterThan(completed.createdAt.getTime())
    const debits = await db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'withdrawal'))
    expect(debits.map((e) => e.amountFen)).toEqual([-1000, -1000])
    // Seeded on every start: nothing more the second time.
    const balance = await ledgerSum(db, seller.id)
    await again()
    expect(await db.select().from(withdrawals)).toHaveLength(2)
    expect(await ledgerSum(db, seller.id)).toBe(balance)
    expect(await withdrawableFen(db, seller.id, new Date())).toBeGreaterThanOrEqual(0)
  })

  it('adds settled demo sales first when the withdrawable income is short of both withdrawals', async () => {
    const { db, seller } = await seeded({ minFen: 5000, feeBp: 100, feeMinFen: 10 })
    const rows = await db.select().from(withdrawals).where(eq(withdrawals.userId, seller.id))
    expect(rows.map((w) => w.amountFen)).toEqual([5000, 5000])
    expect(await withdrawableFen(db, seller.id, new Date())).toBeGreaterThanOrEqual(0)
    const sales = await db.select().from(orders).where(eq(orders.sellerId, seller.id))
    expect(sales.length).toBeGreaterThan(5)
  })
})
