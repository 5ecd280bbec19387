import { createReadableStreamFromReadable, type LoaderFunctionArgs } from '@remix-run/node'
import { STATISTICS_PAGE_MAX, statisticsApi, statisticsRangeSchema } from '#contract/statistics.ts'
import { readStatisticsParams } from '#app/components/statistics/columns.ts'
import { statisticsCsv } from '#app/components/statistics/csv.ts'
import { api, ApiError } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError } from '#app/.server/failures.ts'
import { getT } from '#app/.server/i18n.ts'

type Row = Record<string, number | string | null>
type TabPage = { list: Row[]; total: number; from: string; to: string; totals: Record<string, number> }

/**
 * GET /system/statistics-report/csv?tab=&from=&to=&sort=&order= — the whole tab (every page, in the
 * table's order) as CSV: UTF-8 with a byte-order mark so spreadsheet programs open Chinese text, the
 * header row in the admin's language, a totals row last. Streamed: each page of the API is written as
 * it arrives (decision 075).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const params = readStatisticsParams(new URL(request.url))
  const t = await getT(request)
  const range = statisticsRangeSchema.safeParse({ from: params.from, to: params.to })
  if (!range.success) return new Response(t(range.error.issues[0]!.message), { status: 422, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  const endpoint = statisticsApi[params.tab] as typeof statisticsApi.orders
  const page = async (pageNum: number) =>
    (await api(request, endpoint, { token, query: { from: params.from, to: params.to, sort: params.sort, order: params.order, pageNum, pageSize: STATISTICS_PAGE_MAX } as never })) as unknown as TabPage
  // The first page before any byte is sent: a failure is still a proper error answer.
  let first: TabPage
  try {
    first = await page(1)
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return new Response(t(Object.values(e.fieldErrors ?? {})[0]?.[0] ?? e.msg), { status: 422, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    return pageError(request, e)
  }
  const { stream: csv, write } = statisticsCsv(params.tab, (key) => t(`statistics.col.${key}`))
  void (async () => {
    try {
      let current = first
      for (let pageNum = 1; ; pageNum++) {
        for (const r of current.list) await write(r)
        if (current.list.length < STATISTICS_PAGE_MAX || pageNum * STATISTICS_PAGE_MAX >= first.total) break
        current = await page(pageNum + 1)
      }
      const totals: Row = { username: t('statistics.csvTotal', { from: first.from, to: first.to }), userId: '', ...first.totals }
      await write(totals)
      csv.end()
    } catch (e) {
      csv.destroy(e instanceof Error ? e : new Error(String(e)))
    }
  })()
  return new Response(createReadableStreamFromReadable(csv), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statistics-${params.tab}-${first.from}-${first.to}.csv"`,
      'cache-control': 'no-store',
    },
  })
}
