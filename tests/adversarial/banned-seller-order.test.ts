// Issue 20, low: an order created before its seller was banned still completed and credited the banned
// seller. A payment is honoured only when, as it is applied, the share is approved and its seller not
// banned (decision 042) — but the notify read the seller's row without waiting for a ban being
// committed beside it, so a payment arriving while an admin banned the seller completed the order.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DbHandle, openDatabase } from '#server/db/client.ts'
import { ledgerEntries, orders, shares, users } from '#server/db/schema/index.ts'
import { newUnicode } from '#server/modules/shares/rules.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, freshIp, type TestApp } from '../../server/test/helpers.ts'

const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'

describe(`a payment for a seller banned meanwhile is refunded, never credited (${database})`, () => {
  let t: TestApp
  let admin: string
  /** A second connection pool on PostgreSQL: the admin's ban, held open while the payment arrives. */
  let other: DbHandle | null

  beforeAll(async () => {
    t = await buildTestApp({ config: { seedDemo: false } })
    admin = await t.login('admin', ADMIN_PASSWORD)
    other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: 'memory://' }) : null
  }, 60_000)
  afterAll(async () => {
    await other?.close()
    await t.close()
  })

  async function pendingOrder() {
    const seller = await createUser(t.db)
    const [share] = await t.db
      .insert(shares)
      .values({ userId: seller.id, title: 'Ban race', unicode: newUnicode(), type: 'text', contentEnc: t.app.cipher.encrypt('secret'), priceFen: 1000, status: 'approved' })
      .returning()
    const created = await t.app.inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), payload: { unicode: share!.unicode, paymentMethod: 'Alipay' } })
    expect(created.statusCode, created.body).toBe(201)
    return { sellerId: seller.id, orderNo: created.json().data.orderNo as string }
  }

  const pay = (orderNo: string) => {
    const n = t.app.payments.sandbox!.settle(orderNo, 1000, true)
    return t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
  }

  async function outcome(orderNo: string, sellerId: number) {
    const [order] = await t.db.select({ status: orders.paymentStatus }).from(orders).where(eq(orders.orderNo, orderNo))
    const entries = await t.db.select({ amountFen: ledgerEntries.amountFen }).from(ledgerEntries).where(eq(ledgerEntries.sellerId, sellerId))
    return { status: order!.status, sellerNetFen: entries.reduce((a, e) => a + e.amountFen, 0) }
  }

  it('paid after the ban: refunded, the seller credited nothing', async () => {
    const { sellerId, orderNo } = await pendingOrder()
    const ban = await t.app.inject({ method: 'POST', url: '/api/users/admin/update', headers: bearer(admin), payload: { id: sellerId, is_banned: 1 } })
    expect(ban.statusCode, ban.body).toBe(200)
    expect((await pay(orderNo)).body).toBe('success')
    expect(await outcome(orderNo, sellerId)).toEqual({ status: 'Refund', sellerNetFen: 0 })
  })

  it.skipIf(!process.env.DATABASE_URL)('paid while the ban is being committed: the payment waits for it, then refunds', async () => {
    const { sellerId, orderNo } = await pendingOrder()
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let banLocked!: () => void
    const locked = new Promise<void>((r) => (banLocked = r))
    // The admin's ban, in a transaction of its own that holds the seller's row until released.
    const banning = other!.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, sellerId)).for('update')
      await tx.update(users).set({ isBanned: 1 }).where(eq(users.id, sellerId))
      banLocked()
      await held
    })
    await locked
    const paying = pay(orderNo)
    // Give the notify every chance to finish on its own before the ban commits.
    await new Promise((r) => setTimeout(r, 300))
    release()
    await banning
    expect((await paying).body).toBe('success')
    expect(await outcome(orderNo, sellerId)).toEqual({ status: 'Refund', sellerNetFen: 0 })
  })
})
