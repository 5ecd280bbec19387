import { describe, expect, it } from 'vitest'
import { dashboardFigures, dayRange, everyDay, incomeCalendar } from './rules.ts'

describe('income rules', () => {
  it('the calendar is Asia/Shanghai: 16:00 UTC is already the next day, and the next month at a month end', () => {
    expect(incomeCalendar(new Date('2026-11-30T15:59:59.999Z'))).toEqual({ today: '2026-11-30', monthStart: '2026-11-01', nextMonthStart: '2026-12-01' })
    expect(incomeCalendar(new Date('2026-11-30T16:00:00.000Z'))).toEqual({ today: '2026-12-01', monthStart: '2026-12-01', nextMonthStart: '2027-01-01' })
    expect(incomeCalendar(new Date('2026-12-31T16:00:00.000Z'))).toEqual({ today: '2027-01-01', monthStart: '2027-01-01', nextMonthStart: '2027-02-01' })
  })

  it('a range is the given number of days ending today, oldest first, across month and year ends', () => {
    expect(dayRange('2027-01-02', 4)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02'])
    expect(dayRange('2026-03-01', 2)).toEqual(['2026-02-28', '2026-03-01'])
    expect(dayRange('2026-03-01', 1)).toEqual(['2026-03-01'])
    expect(dayRange('2026-11-23', 90)).toHaveLength(90)
  })

  it('every day of the range is present, zeros where nothing was stored; days outside the range are dropped', () => {
    const range = ['2026-11-21', '2026-11-22', '2026-11-23']
    const stored = [
      { day: '2026-11-20', incomeFen: 5, orders: 1 },
      { day: '2026-11-22', incomeFen: -950, orders: 0 },
    ]
    expect(everyDay(range, stored)).toEqual([
      { day: '2026-11-21', incomeFen: 0, orders: 0 },
      { day: '2026-11-22', incomeFen: -950, orders: 0 },
      { day: '2026-11-23', incomeFen: 0, orders: 0 },
    ])
  })

  it('withdrawable is the balance less the unsettled income, and may be negative', () => {
    expect(dashboardFigures({ balanceFen: 1000, incomeFen: 3000, todayFen: 10, monthFen: 20, unsettledFen: 400 })).toEqual({
      withdrawableFen: 600,
      monthFen: 20,
      todayFen: 10,
      unsettledFen: 400,
      totalFen: 3000,
    })
    expect(dashboardFigures({ balanceFen: 100, incomeFen: 100, todayFen: 0, monthFen: 0, unsettledFen: 950 }).withdrawableFen).toBe(-850)
  })
})
