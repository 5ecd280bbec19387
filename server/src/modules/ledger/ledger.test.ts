import fs from 'node:fs'
import path from 'node:path'
import { eq, sum } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ledgerEntries, orders, shares } from '../../db/schema/index.ts'
import { buildTestApp, createUser, type TestApp } from '../../../test/helpers.ts'
import { newOrderNo } from '../orders/rules.ts'
import { postRefund, postSale } from './service.ts'

let t: TestApp
let sellerId: number
let shareId: number

beforeAll(async () => {
  t = await buildTestApp({ config: { seedDemo: false } })
  sellerId = (await createUser(t.db)).id
  const [share] = await t.db
    .insert(shares)
    .values({ userId: sellerId, title: 'Ledger', unicode: 'Ledg2345', type: 'text', contentEnc: 'x', priceFen: 1000, status: 'approved' })
    .returning()
  shareId = share!.id
})
afterAll(() => t.close())

/** A paid order of the seller: 10.00 with a 0.50 fee. */
async function paidOrder(incomeFen = 950) {
  const [o] = await t.db
    .insert(orders)
    .values({
      orderNo: newOrderNo(),
      shareId,
      sellerId,
      productName: 'Ledger',
      amountFen: 1000,
      paymentMethod: 'Alipay',
      provider: 'sandbox',
      paymentStatus: 'Completed',
      feeFen: 1000 - incomeFen,
      sellerIncomeFen: incomeFen,
      expiresAt: new Date(Date.now() + 60_000),
    })
    .returning()
  return o!
}

const entriesOf = (orderId: number) => t.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId))
const balance = async () => Number((await t.db.select({ s: sum(ledgerEntries.amountFen) }).from(ledgerEntries).where(eq(ledgerEntries.sellerId, sellerId)))[0]?.s ?? 0)

describe('ledger: the seller ledger, written only here', () => {
  it('a sale posted again (a replay) is one row', async () => {
    const o = await paidOrder()
    expect(await t.db.transaction((tx) => postSale(tx, o))).toBe(true)
    expect(await t.db.transaction((tx) => postSale(tx, o))).toBe(false)
    // Racing postings in concurrent transactions.
    const raced = await Promise.all(Array.from({ length: 5 }, () => t.db.transaction((tx) => postSale(tx, o))))
    expect(raced.filter(Boolean)).toHaveLength(0)
    expect((await entriesOf(o.id)).map((e) => [e.kind, e.amountFen, e.sellerId])).toEqual([['sale', 950, sellerId]])
  })

  it('a refund takes back what the sale credited, once', async () => {
    const o = await paidOrder()
    await postSale(t.db, o)
    expect(await t.db.transaction((tx) => postRefund(tx, o))).toBe(true)
    const again = await Promise.all(Array.from({ length: 3 }, () => t.db.transaction((tx) => postRefund(tx, o))))
    expect(again.filter(Boolean)).toHaveLength(0)
    const entries = await entriesOf(o.id)
    expect(entries.map((e) => [e.kind, e.amountFen]).sort()).toEqual([
      ['refund', -950],
      ['sale', 950],
    ])
  })

  it('a refund without a sale posts nothing; an order without income posts no sale', async () => {
    const unsold = await paidOrder()
    expect(await postRefund(t.db, unsold)).toBe(false)
    expect(await entriesOf(unsold.id)).toEqual([])
    const free = await paidOrder(0)
    expect(await postSale(t.db, free)).toBe(false)
    expect(await entriesOf(free.id)).toEqual([])
  })

  it("posts in the caller's transaction: rolled back with it", async () => {
    const o = await paidOrder()
    await expect(
      t.db.transaction(async (tx) => {
        await postSale(tx, o)
        throw new Error('the order change failed')
      }),
    ).rejects.toThrow('the order change failed')
    expect(await entriesOf(o.id)).toEqual([])
  })

  it('the balance is the sum: sales minus refunds', async () => {
    const before = await balance()
    const kept = await paidOrder(950)
    const refunded = await paidOrder(1900)
    await postSale(t.db, kept)
    await postSale(t.db, refunded)
    expect(await balance()).toBe(before + 950 + 1900)
    await postRefund(t.db, refunded)
    await postRefund(t.db, refunded)
    expect(await balance()).toBe(before + 950)
  })

  it('no other code writes ledger rows', () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const writers: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (/\.ts$/.test(e.name) && !e.name.endsWith('.test.ts')) {
          if (/\.(insert|update|delete)\(\s*ledgerEntries\b/.test(fs.readFileSync(p, 'utf8'))) writers.push(path.relative(root, p))
        }
      }
    }
    walk(root)
    expect(writers).toEqual([path.join('modules', 'ledger', 'service.ts')])
  })
})
