import { describe, expect, it } from 'vitest'
import { lastMonth, openRefusal, sameNameKey } from './rules.ts'

describe('last month (Asia/Shanghai calendar)', () => {
  it('is the month before the Shanghai month of now', () => {
    expect(lastMonth(new Date('2026-11-23T04:00:00Z'))).toEqual({ month: '2026-10', from: '2026-10-01', to: '2026-11-01' })
  })
  it('follows the Shanghai day at the month boundary, not UTC', () => {
    // 2026-11-30 16:30 UTC is already 1 December in Shanghai: last month is November.
    expect(lastMonth(new Date('2026-11-30T16:30:00Z')).month).toBe('2026-11')
    // 2026-11-30 15:59 UTC is still 30 November in Shanghai: last month is October.
    expect(lastMonth(new Date('2026-11-30T15:59:59Z')).month).toBe('2026-10')
  })
  it('crosses the year in January', () => {
    expect(lastMonth(new Date('2027-01-15T00:00:00Z'))).toEqual({ month: '2026-12', from: '2026-12-01', to: '2027-01-01' })
  })
  it('handles a short February and a leap year', () => {
    expect(lastMonth(new Date('2028-03-01T00:00:00+08:00'))).toEqual({ month: '2028-02', from: '2028-02-01', to: '2028-03-01' })
  })
})

describe('who may open a channel', () => {
  const enabled = { status: 'enable' as const, minimumIncomeFen: 100_00 }
  it('refuses a disabled channel whatever the income', () => {
    expect(openRefusal({ ...enabled, status: 'disable' }, 1_000_000_00)).toBe('channels.disabled')
  })
  it('needs last month\'s income to reach the minimum (equal is enough)', () => {
    expect(openRefusal(enabled, 99_99)).toBe('channels.belowMinimum')
    expect(openRefusal(enabled, 100_00)).toBeNull()
    expect(openRefusal({ ...enabled, minimumIncomeFen: 0 }, 0)).toBeNull()
  })
  it('counts a net loss (refunds beyond sales) as below any positive minimum', () => {
    expect(openRefusal({ ...enabled, minimumIncomeFen: 1 }, -500)).toBe('channels.belowMinimum')
  })
})

describe('channel names', () => {
  it('compare without case and extra spaces', () => {
    expect(sameNameKey('  Pro   Plan ')).toBe(sameNameKey('pro plan'))
    expect(sameNameKey('Pro')).not.toBe(sameNameKey('Pro 2'))
  })
})
