import crypto from 'node:crypto'
import { asc } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORDER_NO_PATTERN } from '#contract/shares.ts'
import { openTestDatabase } from '../../test/helpers.ts'
import { orders } from './schema.ts'
import { seed } from './seed.ts'

/** yyyyMMddHHmmss in Asia/Shanghai, the time an order number names (decision: order numbers). */
function shanghaiStamp(d: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Shanghai',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(d)
  const get = (type: string) => parts.find((p) => p.type === type)!.value
  return `${get('year')}${get('month')}${get('day')}${get('hour')}${get('minute')}${get('second')}`
}

let handle: Awaited<ReturnType<typeof openTestDatabase>>
beforeAll(async () => {
  handle = await openTestDatabase()
  await seed(handle.db, { adminPassword: 'Admin@2026', demo: true, contentKey: crypto.randomBytes(32).toString('base64'), feeBasisPoints: 500 })
})
afterAll(() => handle.close())

describe('the demo seed', () => {
  it('makes orders in every payment status', async () => {
    const rows = await handle.db.select().from(orders)
    expect(new Set(rows.map((o) => o.paymentStatus))).toEqual(new Set(['Pending', 'Completed', 'Failed', 'Refund']))
  })

  it('gives every order a created time that its order number names (issue 13, item 7)', async () => {
    const rows = await handle.db.select().from(orders).orderBy(asc(orders.createdAt))
    for (const o of rows) {
      expect(o.orderNo).toMatch(ORDER_NO_PATTERN)
      expect(o.orderNo.slice(2, 16), `${o.orderNo} (${o.paymentStatus})`).toBe(shanghaiStamp(o.createdAt))
    }
    // So sorting by number is sorting by time, and, as with real orders, so is sorting by id.
    expect([...rows].sort((a, b) => a.orderNo.localeCompare(b.orderNo)).map((o) => o.id)).toEqual(rows.map((o) => o.id))
    expect([...rows].sort((a, b) => a.id - b.id).map((o) => o.id)).toEqual(rows.map((o) => o.id))
  })

  it('keeps each order\'s times in order: created, then paid, then refunded; expiry 30 minutes after creation', async () => {
    for (const o of await handle.db.select().from(orders)) {
      expect(o.expiresAt.getTime() - o.createdAt.getTime()).toBe(30 * 60 * 1000)
      if (o.paymentStatus === 'Completed' || o.paymentStatus === 'Refund') expect(o.paidAt!.getTime()).toBeGreaterThan(o.createdAt.getTime())
      else expect(o.paidAt).toBeNull()
      if (o.paymentStatus === 'Refund') expect(o.refundedAt!.getTime()).toBeGreaterThan(o.paidAt!.getTime())
      else expect(o.refundedAt).toBeNull()
    }
  })
})
