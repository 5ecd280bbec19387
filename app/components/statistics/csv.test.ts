import { describe, expect, it } from 'vitest'
import { formatRate, readStatisticsParams } from './columns.ts'
import { statisticsCsv } from './csv.ts'

async function text(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer))
  return Buffer.concat(chunks)
}

describe('statistics CSV', () => {
  it('starts with a UTF-8 BOM, then the header row, figures formatted for a spreadsheet, the totals row last', async () => {
    const labels: Record<string, string> = { user: '用户', userId: '用户 ID' }
    const csv = statisticsCsv('sellers', (k) => labels[k] ?? k.split('.')[1]!)
    const done = text(csv.stream)
    await csv.write({ username: '张三, "the best"', userId: 7, orders: 3, completed: 2, pending: 0, failed: 0, refunded: 1, free: 1, gmv: 12.3, refundAmount: 5, fee: 0.62, income: 11.68, shares: 2, visits: 8, conversionRate: 0.125 })
    await csv.write({ username: 'line\nbreak', userId: 8, orders: 1, completed: 0, pending: 1, failed: 0, refunded: 0, free: 0, gmv: 0, refundAmount: 0, fee: 0, income: 0, shares: 0, visits: 0, conversionRate: null })
    await csv.write({ username: '合计', userId: '', orders: 4, completed: 2, pending: 1, failed: 0, refunded: 1, free: 1, gmv: 12.3, refundAmount: 5, fee: 0.62, income: 11.68 })
    csv.stream.end()
    const bytes = await done
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const body = bytes.toString('utf8').slice(1)
    expect(body).toBe(
      [
        '用户,用户 ID,orders,completed,pending,failed,refunded,free,gmv,refundAmount,fee,income,shares,visits,conversionRate',
        '"张三, ""the best""",7,3,2,0,0,1,1,12.30,5.00,0.62,11.68,2,8,12.5%',
        '"line\nbreak",8,1,0,1,0,0,0,0.00,0.00,0.00,0.00,0,0,',
        '合计,,4,2,1,0,1,1,12.30,5.00,0.62,11.68,,,',
        '',
      ].join('\n'),
    )
  })
})

describe('statistics page params', () => {
  const params = (q: string) => readStatisticsParams(new URL(`http://x/system/statistics-report?${q}`))
  it('defaults to the comprehensive tab by its first figure, descending, page 1', () => {
    expect(params('')).toEqual({ tab: 'comprehensive', sort: 'gmv', order: 'desc', pageNum: 1, from: undefined, to: undefined })
  })
  it('drops a sort that is not a column of the tab, a bad order and a bad page', () => {
    expect(params('tab=withdrawals&sort=gmv&order=sideways&pageNum=-3')).toEqual({ tab: 'withdrawals', sort: 'amount', order: 'desc', pageNum: 1, from: undefined, to: undefined })
    expect(params('tab=nope&sort=sold&order=asc&pageNum=2&from=2026-11-01')).toMatchObject({ tab: 'comprehensive', sort: 'sold', order: 'asc', pageNum: 2, from: '2026-11-01' })
  })
  it('shows a rate as a percentage with up to two decimals, a dash without one', () => {
    expect([formatRate(0.125), formatRate(1 / 3), formatRate(0), formatRate(null)]).toEqual(['12.5%', '33.33%', '0%', '—'])
  })
})
