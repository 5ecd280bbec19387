import { describe, expect, it } from 'vitest'
import { cacheOf, MAX_USERS, type PastFigures, StatisticsCache } from './cache.ts'

const entry = (users: number): PastFigures => ({ version: 1, logId: 0, table: { userIds: new Int32Array(users), figures: new Float64Array(users), width: 1 } })

describe('statistics cache', () => {
  it('keeps at most MAX_USERS users in all, the least recently used going first', () => {
    const c = new StatisticsCache()
    const third = Math.floor(MAX_USERS / 3)
    c.set('orders', '2026-10-01', '2026-10-30', entry(third))
    c.set('sellers', '2026-10-01', '2026-10-30', entry(third))
    c.set('comprehensive', '2026-10-01', '2026-10-30', entry(third))
    // Read, the first becomes the most recent: the next entry pushes out the second instead.
    expect(c.get('orders', '2026-10-01', '2026-10-30')).toBeDefined()
    c.set('orders', '2026-09-01', '2026-09-30', entry(third))
    expect(c.get('sellers', '2026-10-01', '2026-10-30')).toBeUndefined()
    expect(c.get('orders', '2026-10-01', '2026-10-30')).toBeDefined()
    expect(c.get('comprehensive', '2026-10-01', '2026-10-30')).toBeDefined()
    expect(c.get('orders', '2026-09-01', '2026-09-30')).toBeDefined()
  })

  it('replaces an entry of the same tab and range, and never keeps one larger than the whole cache', () => {
    const c = new StatisticsCache()
    c.set('orders', '2026-10-01', '2026-10-30', entry(10))
    const newer = { ...entry(20), version: 2 }
    c.set('orders', '2026-10-01', '2026-10-30', newer)
    expect(c.get('orders', '2026-10-01', '2026-10-30')).toBe(newer)
    c.set('orders', '2025-11-01', '2026-10-30', entry(MAX_USERS + 1))
    expect(c.get('orders', '2025-11-01', '2026-10-30')).toBeUndefined()
    // A too-large entry for a range replaces (drops) what was kept for it.
    c.set('orders', '2026-10-01', '2026-10-30', entry(MAX_USERS + 1))
    expect(c.get('orders', '2026-10-01', '2026-10-30')).toBeUndefined()
  })

  it('is one per database', () => {
    const a = {}
    const b = {}
    expect(cacheOf(a)).toBe(cacheOf(a))
    expect(cacheOf(a)).not.toBe(cacheOf(b))
  })
})
