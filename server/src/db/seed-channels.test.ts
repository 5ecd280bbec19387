import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/helpers.ts'
import { channels } from './schema/index.ts'
import { seed } from './seed.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('the demo channels', () => {
  it('are two enabled channels, the second cheaper in fees and needing income; seeded once', async () => {
    const rows = await t.db.select().from(channels).orderBy(channels.id)
    expect(rows).toHaveLength(2)
    expect(rows.every((c) => c.status === 'enable')).toBe(true)
    const [standard, pro] = rows
    expect(standard!.minimumIncomeFen).toBe(0)
    expect(pro!.feeRateBp).toBeLessThan(standard!.feeRateBp)
    expect(pro!.minimumIncomeFen).toBeGreaterThan(0)
    expect(pro!.priceFen).toBeGreaterThan(0)
    // An admin's change survives a restart (the seed runs again at every start).
    await t.db.update(channels).set({ status: 'disable' }).where(eq(channels.id, pro!.id))
    await seed(t.db, { demo: true })
    const again = await t.db.select().from(channels).orderBy(channels.id)
    expect(again).toHaveLength(2)
    expect(again[1]!.status).toBe('disable')
  })
})
