import { describe, expect, it } from 'vitest'
import { rangeDays, resolveRange, STATISTICS_SORTS, statisticsQuerySchemas, STATISTICS_TABS } from '#contract/statistics.ts'
import { clusterCalendar, conversionRate, everyDay, rangePlan, sortColumn, TAB_FIGURES } from './rules.ts'

describe('statistics rules', () => {
  it('every sort key of the contract is a figure of its tab (the SQL orders by the figure column)', () => {
    for (const tab of STATISTICS_TABS) {
      for (const s of STATISTICS_SORTS[tab]) expect(Object.keys(TAB_FIGURES[tab])).toContain(s)
      expect(() => sortColumn(tab, 'user_id; drop table users')).toThrow()
    }
  })

  it('ranges: default the last 30 days to today; both days counted; order and length checked', () => {
    expect(resolveRange({}, '2026-11-20')).toEqual({ from: '2026-10-22', to: '2026-11-20' })
    expect(resolveRange({ from: '2026-11-01' }, '2026-11-20')).toEqual({ from: '2026-11-01', to: '2026-11-20' })
    expect(resolveRange({ to: '2026-03-01' }, '2026-11-20')).toEqual({ from: '2026-01-31', to: '2026-03-01' })
    expect(rangeDays('2026-11-20', '2026-11-20')).toBe(1)
    expect(rangeDays('2024-01-01', '2024-12-31')).toBe(366)
    const parse = (q: Record<string, string>) => statisticsQuerySchemas.orders.safeParse(q)
    expect(parse({ from: '2024-01-01', to: '2024-12-31' }).success).toBe(true)
    expect(parse({ from: '2024-01-01', to: '2025-01-01' }).error?.issues[0]).toMatchObject({ path: ['to'], message: 'statistics.rangeTooLong' })
    expect(parse({ from: '2026-11-02', to: '2026-11-01' }).error?.issues[0]).toMatchObject({ path: ['to'], message: 'statistics.rangeOrder' })
    expect(parse({ from: '2026-02-30' }).error?.issues[0]).toMatchObject({ path: ['from'], message: 'validation.date' })
  })

  it('every day of a range across a month end, and the cluster calendar in Shanghai', () => {
    expect(everyDay('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'])
    expect(clusterCalendar(new Date('2026-11-30T16:00:00Z'))).toEqual({ today: '2026-12-01', monthStart: '2026-12-01' })
    expect(clusterCalendar(new Date('2026-11-30T15:59:59Z'))).toEqual({ today: '2026-11-30', monthStart: '2026-11-01' })
  })

  it('conversion rate: purchases / visits to four places, none without visits', () => {
    expect(conversionRate(1, 8)).toBe(0.125)
    expect(conversionRate(1, 3)).toBe(0.3333)
    expect(conversionRate(5, 0)).toBeNull()
  })

  it('a range plan covers every day of the range exactly once (months minus their outside days, plus days)', () => {
    expect(rangePlan('2026-10-25', '2026-11-23')).toEqual({
      months: ['2026-11'],
      days: [{ from: '2026-10-25', to: '2026-10-31' }],
      minusDays: [{ from: '2026-11-24', to: '2026-11-30' }],
    })
    expect(rangePlan('2026-11-03', '2026-11-05')).toEqual({ months: [], days: [{ from: '2026-11-03', to: '2026-11-05' }], minusDays: [] })
    expect(rangePlan('2024-02-01', '2024-02-29').months).toEqual(['2024-02'])
    // Every day counted once: +1 per month day, +1 per added day, −1 per taken-away day.
    for (const [from, to] of [['2025-12-17', '2026-03-02'], ['2026-01-01', '2026-12-31'], ['2025-11-24', '2026-11-23'], ['2026-02-10', '2026-02-20'], ['2026-02-28', '2026-03-01']] as const) {
      const plan = rangePlan(from, to)
      const count = new Map<string, number>()
      const add = (d: string, n: number) => count.set(d, (count.get(d) ?? 0) + n)
      for (const m of plan.months) for (const d of everyDay(`${m}-01`, `${m}-31`)) if (d.startsWith(m)) add(d, 1)
      for (const r of plan.days) for (const d of everyDay(r.from, r.to)) add(d, 1)
      for (const r of plan.minusDays) for (const d of everyDay(r.from, r.to)) add(d, -1)
      const inRange = new Set(everyDay(from, to))
      for (const [d, n] of count) expect([d, n]).toEqual([d, inRange.has(d) ? 1 : 0])
      for (const d of inRange) expect(count.get(d)).toBe(1)
    }
  })
})
