import { describe, expect, it } from 'vitest'
import { rangeDays, resolveRange, STATISTICS_SORTS, statisticsQuerySchemas, STATISTICS_TABS } from '#contract/statistics.ts'
import { addDays } from '#contract/days.ts'
import { clusterCalendar, conversionRate, everyDay, blockPlan, keptBlocks, monthPieces, pageOfUsers, rangePlan, sortColumn, splitRange, TAB_FIGURES } from './rules.ts'

describe('statistics rules', () => {
  it('every sort key of the contract is a figure of its tab (the page is sorted by the figure of that name)', () => {
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

  it('a range splits at today: the days before are kept, today and after are read each time', () => {
    const today = '2026-11-20'
    expect(splitRange({ from: '2026-10-22', to: today }, today)).toEqual({ past: { from: '2026-10-22', to: '2026-11-19' }, live: { from: today, to: today } })
    expect(splitRange({ from: '2026-10-01', to: '2026-10-31' }, today)).toEqual({ past: { from: '2026-10-01', to: '2026-10-31' }, live: null })
    expect(splitRange({ from: today, to: '2026-11-25' }, today)).toEqual({ past: null, live: { from: today, to: '2026-11-25' } })
    expect(splitRange({ from: '2026-11-19', to: '2026-11-19' }, today)).toEqual({ past: { from: '2026-11-19', to: '2026-11-19' }, live: null })
    expect(splitRange({ from: '2026-11-22', to: '2026-11-23' }, today)).toEqual({ past: null, live: { from: '2026-11-22', to: '2026-11-23' } })
  })

  it('a page of users equals sorting them all: by the figure either way, ties by user id, with the count and totals', () => {
    let seed = 7
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const width = 3
    const n = 3000
    const userIds = Array.from({ length: n }, (_, i) => i * 7 + 1).sort(() => rand() - 0.5)
    const figures = Array.from({ length: n * width }, () => Math.floor(rand() * 20) - 5)
    const rows = userIds.map((userId, i) => ({ userId, figures: figures.slice(i * width, (i + 1) * width) }))
    for (const sortAt of [0, 2]) {
      for (const order of ['asc', 'desc'] as const) {
        const sign = order === 'asc' ? 1 : -1
        const sorted = [...rows].sort((a, b) => sign * (a.figures[sortAt]! - b.figures[sortAt]!) || a.userId - b.userId)
        // Near the top (selected as read) and far down (sorted whole), and past the end.
        for (const [offset, size] of [[0, 20], [40, 20], [1990, 20], [2500, 100], [2990, 50], [5000, 10]] as const) {
          const page = pageOfUsers({ userIds, figures, width }, sortAt, order, offset, size)
          expect(page.rows, `${sortAt} ${order} ${offset}`).toEqual(sorted.slice(offset, offset + size))
          expect(page.total).toBe(n)
          expect(page.totals).toEqual([0, 1, 2].map((k) => rows.reduce((t, r) => t + r.figures[k]!, 0)))
        }
      }
    }
    expect(pageOfUsers({ userIds: [], figures: [], width }, 0, 'desc', 0, 20)).toEqual({ rows: [], total: 0, totals: [0, 0, 0] })
  })

  it('monthPieces: whole months inside the range plus its days in each month it holds in part, every day exactly once', () => {
    expect(monthPieces({ from: '2025-11-28', to: '2026-02-03' })).toEqual({
      months: [
        { from: '2025-12-01', to: '2025-12-31' },
        { from: '2026-01-01', to: '2026-01-31' },
      ],
      edges: [
        { from: '2025-11-28', to: '2025-11-30' },
        { from: '2026-02-01', to: '2026-02-03' },
      ],
    })
    expect(monthPieces({ from: '2024-02-01', to: '2024-02-29' })).toEqual({ months: [{ from: '2024-02-01', to: '2024-02-29' }], edges: [] })
    expect(monthPieces({ from: '2026-10-15', to: '2026-11-10' })).toEqual({
      months: [],
      edges: [
        { from: '2026-10-15', to: '2026-10-31' },
        { from: '2026-11-01', to: '2026-11-10' },
      ],
    })
    for (let i = 0; i < 300; i++) {
      const from = addDays('2024-01-01', (i * 7919) % 900)
      const to = addDays(from, (i * 104729) % 366)
      const { months, edges } = monthPieces({ from, to })
      for (const m of months) {
        expect(m.from.endsWith('-01')).toBe(true)
        expect(addDays(m.to, 1).endsWith('-01')).toBe(true)
      }
      for (const e of edges) expect(e.from.slice(0, 7)).toBe(e.to.slice(0, 7))
      const days = [...months, ...edges].flatMap((p) => everyDay(p.from, p.to)).sort()
      expect(days).toEqual(everyDay(from, to))
    }
  })

  it('keptBlocks: the whole months of the last 366 days before this one, and this month up to yesterday', () => {
    const blocks = keptBlocks('2026-11-20')
    expect(blocks[0]).toEqual({ from: '2025-11-01', to: '2025-11-30' })
    expect(blocks.at(-2)).toEqual({ from: '2026-10-01', to: '2026-10-31' })
    expect(blocks.at(-1)).toEqual({ from: '2026-11-01', to: '2026-11-19' })
    expect(blocks).toHaveLength(13)
    // On the first of a month, the month that ended yesterday is whole and there is nothing of this one.
    expect(keptBlocks('2026-12-01').at(-1)).toEqual({ from: '2026-11-01', to: '2026-11-30' })
  })

  it('blockPlan: blocks plus days less days count every day of the range exactly once, and few days are read', () => {
    const yesterday = '2026-11-19'
    // A year up to yesterday: whole months, the first days as days, this month as its kept block.
    expect(blockPlan({ from: '2025-11-28', to: yesterday }, yesterday)).toEqual({
      blocks: [...keptBlocks('2026-11-20').slice(1, -1), { from: '2026-11-01', to: yesterday }],
      plus: [{ from: '2025-11-28', to: '2025-11-30' }],
      minus: [],
    })
    // Most of a month: the month less its first days.
    expect(blockPlan({ from: '2026-10-05', to: '2026-10-31' }, yesterday)).toEqual({ blocks: [{ from: '2026-10-01', to: '2026-10-31' }], plus: [], minus: [{ from: '2026-10-01', to: '2026-10-04' }] })
    for (let i = 0; i < 300; i++) {
      const to = addDays(yesterday, -((i * 7919) % 400))
      const from = addDays(to, -((i * 104729) % 366))
      const plan = blockPlan({ from, to }, yesterday)
      const count = new Map<string, number>()
      const add = (list: { from: string; to: string }[], n: number) => list.forEach((p) => everyDay(p.from, p.to).forEach((d) => count.set(d, (count.get(d) ?? 0) + n)))
      add(plan.blocks, 1)
      add(plan.plus, 1)
      add(plan.minus, -1)
      for (const b of plan.blocks) expect(b.to <= yesterday).toBe(true)
      expect([...count].filter(([, n]) => n !== 0).map(([d]) => d).sort(), `${from}..${to}`).toEqual(everyDay(from, to))
      expect([...count.values()].every((n) => n === 0 || n === 1)).toBe(true)
      // At most half a month of days read at each end.
      const read = [...plan.plus, ...plan.minus].reduce((n, p) => n + everyDay(p.from, p.to).length, 0)
      expect(read).toBeLessThanOrEqual(32)
    }
  })
})
