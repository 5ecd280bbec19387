// The bench's calls of the API, through the contract's typed client (decision 130): the endpoints by
// their definition, never by a string path, and the URLs the load generators send many times built
// from the same definitions. The bench runs under tsx (`node --import tsx`) to read this file.
import { authApi } from '#contract/auth.ts'
import { fetchClient, urlOf } from '#contract/client.ts'
import { HEALTH_PATH } from '#contract/http.ts'
import { incomeApi } from '#contract/income.ts'
import { EVENTS_PATH, notificationsApi } from '#contract/messages.ts'
import { ordersApi } from '#contract/orders.ts'
import { shareApi, sharesApi } from '#contract/shares.ts'
import { statisticsApi } from '#contract/statistics.ts'
import { loginRecordsApi, usersApi } from '#contract/users.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'

/** A request the bench times: what it prints, the URL, and its target in ms (null: a baseline). */
type Timed = { name: string; url: string; target: number | null }

export function benchApi(base: string) {
  const { ok } = fetchClient(base)
  const named = (url: string) => {
    const u = new URL(url)
    return `GET ${u.pathname}${decodeURIComponent(u.search).replace(/\+/g, ' ')}`
  }
  return {
    /** Answers 200 once the API is up (outside the contract: no envelope worth typing). */
    health: base + HEALTH_PATH,
    /** The live events stream (server-sent events, outside the contract's JSON endpoints). */
    events: base + EVENTS_PATH,
    login: async (username: string, password: string) => (await ok(authApi.login, { body: { username, password } })).token,

    /** The code of a share anyone may open (the share page and `GET /api/share` bench on it). */
    async approvedShare(adminToken: string): Promise<string> {
      const [share] = (await ok(sharesApi.adminList, { token: adminToken, query: { status: 'approved' } })).list
      if (!share) throw new Error('no approved share to bench on')
      return share.unicode
    },
    /** A completed share order (seeded demo sales): its share page shows the paid content to `?order=`. */
    async paidShare(adminToken: string): Promise<{ unicode: string; orderNo: string }> {
      const { list } = await ok(ordersApi.adminList, { token: adminToken, query: { payment_status: 'Completed' } })
      const order = list.find((o) => o.product_type === 'share' && o.unicode)
      if (!order?.unicode) throw new Error('no completed share order to bench on')
      return { unicode: order.unicode, orderNo: order.orderNo }
    },
    /** The public share lookup, the API's side of a share page. */
    shareLookup: (unicode: string) => urlOf(base, shareApi.lookup, { query: { unicode } }),

    incomeSummary: (token: string) => ok(incomeApi.summary, { token }),
    /** The seller's dashboard figures and 30-day chart, timed beside the health check. */
    incomeTargets: (): Timed[] => [
      { name: `${named(base + HEALTH_PATH)} (baseline)`, url: base + HEALTH_PATH, target: null },
      { name: named(urlOf(base, incomeApi.summary)), url: urlOf(base, incomeApi.summary), target: 20 },
      { name: named(urlOf(base, incomeApi.daily, { query: { days: 30 } })), url: urlOf(base, incomeApi.daily, { query: { days: 30 } }), target: 50 },
    ],

    /** One notification to every user: each open stream receives it (bench/sse.mjs). */
    publishNotification: (adminToken: string) =>
      ok(notificationsApi.adminCreate, { token: adminToken, body: { title: 'bench', priority: 1, content: 'to every open stream', label_color: 'blue' } }),

    cluster: (adminToken: string) => ok(statisticsApi.cluster, { token: adminToken }),

    /**
     * The admin statistics (target ≤ 200 ms) and the admin lists with filters (≤ 50 ms) that the
     * statistics bench times; `day(offset)` is an Asia/Shanghai day relative to today.
     */
    statisticsTargets(day: (offset: number) => string): { stats: Timed[]; lists: Timed[] } {
      const stats = [
        ...[statisticsApi.comprehensive, statisticsApi.orders, statisticsApi.sellers, statisticsApi.withdrawals].map((e) => urlOf(base, e)).map((url) => ({ name: `${named(url)} (last 30 days)`, url })),
        ...[
          urlOf(base, statisticsApi.sellers, { query: { from: day(-89), to: day(0), sort: 'income', order: 'desc', pageNum: 3 } }),
          urlOf(base, statisticsApi.comprehensive, { query: { from: day(-365), to: day(0) } }),
          urlOf(base, statisticsApi.cluster),
        ].map((url) => ({ name: named(url), url })),
      ].map((t) => ({ ...t, target: 200 }))
      const lists = [
        urlOf(base, ordersApi.adminList, { query: { payment_status: 'Refund' } }),
        urlOf(base, ordersApi.adminList, { query: { payment_status: 'Completed', from: day(-6), to: day(0) } }),
        urlOf(base, ordersApi.adminList, { query: { keyword: 'bs_4242' } }),
        urlOf(base, sharesApi.adminList, { query: { status: 'under_review' } }),
        urlOf(base, sharesApi.adminList, { query: { keyword: 'Bench share 777' } }),
        urlOf(base, usersApi.list, { query: { keyword: 'bs_777', role: 'user' } }),
        urlOf(base, withdrawalsApi.adminList, { query: { status: 'Pending' } }),
        urlOf(base, withdrawalsApi.adminList, { query: { status: 'Completed', from: day(-29), to: day(0) } }),
        urlOf(base, loginRecordsApi.adminList, { query: { keyword: 'bs_777' } }),
      ].map((url) => ({ name: named(url).replace(/\d{4}-\d\d-\d\d/g, 'D'), url, target: 50 }))
      return { stats, lists }
    },
    /**
     * Ranges other than the defaults, each timed once at its first request after a start (decision 144):
     * 30 days up to yesterday, 90 days, a year, and custom ones that end and start mid-month.
     */
    statisticsFirstTargets(day: (offset: number) => string): Timed[] {
      const ranges: [string, { from: string; to: string }][] = [
        ['30 days up to yesterday', { from: day(-30), to: day(-1) }],
        ['90 days', { from: day(-89), to: day(0) }],
        ['a year', { from: day(-365), to: day(0) }],
        ['custom, 200 days', { from: day(-199), to: day(0) }],
        ['custom, mid-month to mid-month', { from: day(-300), to: day(-130) }],
      ]
      return ranges.flatMap(([label, query]) =>
        [statisticsApi.comprehensive, statisticsApi.orders, statisticsApi.sellers].map((e) => {
          const url = urlOf(base, e, { query })
          return { name: `${named(url).replace(/\?.*/, '')} (${label})`, url, target: 200 }
        }),
      )
    },
  }
}
