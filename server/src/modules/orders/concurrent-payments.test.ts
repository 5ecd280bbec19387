// Payments of one share arriving at once (issue 22: the cluster test saw them deadlock on PostgreSQL,
// each holding a share lock on the share row and then counting the sale on it). On the PostgreSQL pass
// they run side by side on separate connections; on PGlite one after the other.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { yuanToFen } from '#contract/money.ts'
import { buildShare, newShareBody } from '../../db/factories.ts'
import { ledgerEntries, orders, shares } from '../../db/schema/index.ts'
import { ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp, type TestApp } from '../../../test/helpers.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

it('payments of one share arriving at once all settle, each with its one sale, and the share counts them all', async () => {
  const seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
  const admin = await t.login('admin', ADMIN_PASSWORD)
  const created = await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(seller), payload: newShareBody(buildShare({ title: 'Busy share', priceFen: yuanToFen(3) })) })
  const share = created.json().data as { id: number; unicode: string }
  await t.app.inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: share.id, status: 'approved' } })
  const orderNos: string[] = []
  for (let i = 0; i < 20; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: share.unicode, paymentMethod: 'Alipay' } })
    orderNos.push((res.json().data as { orderNo: string }).orderNo)
  }
  const answers = await Promise.all(
    orderNos.map((orderNo) => {
      const n = t.app.payments.sandbox!.settle(orderNo, yuanToFen(3), true)
      return t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
    }),
  )
  expect(answers.map((a) => a.statusCode)).toEqual(orderNos.map(() => 200))
  const paid = await t.db.select({ id: orders.id, status: orders.paymentStatus }).from(orders).where(inArray(orders.orderNo, orderNos))
  expect(paid.map((o) => o.status)).toEqual(orderNos.map(() => 'Completed'))
  const sales = await t.db.select().from(ledgerEntries).where(inArray(ledgerEntries.orderId, paid.map((o) => o.id)))
  expect(sales.filter((e) => e.kind === 'sale')).toHaveLength(orderNos.length)
  const [row] = await t.db.select({ count: shares.purchaseCount }).from(shares).where(eq(shares.id, share.id))
  expect(row!.count).toBe(orderNos.length)
})
