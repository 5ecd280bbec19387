import { statisticsApi } from '#contract/statistics.ts'
import { defineModule, ok } from '../../http/module.ts'
import { cluster, comprehensiveStatistics, ordersStatistics, sellerStatistics, withdrawalStatistics } from './service.ts'

/** Admin statistics (issue 9 C): the four SPEC §9 tabs and the instrument cluster, read from the pre-aggregates (decision 073). */
export default defineModule({
  name: 'statistics',
  admin(r) {
    const { app } = r
    r.route(statisticsApi.comprehensive, async (request) => ok(await comprehensiveStatistics(app.db, request.query, app.clock())))
    r.route(statisticsApi.orders, async (request) => ok(await ordersStatistics(app.db, request.query, app.clock())))
    r.route(statisticsApi.sellers, async (request) => ok(await sellerStatistics(app.db, request.query, app.clock())))
    r.route(statisticsApi.withdrawals, async (request) => ok(await withdrawalStatistics(app.db, request.query, app.clock())))
    r.route(statisticsApi.cluster, async () => ok(await cluster(app.db, app.clock())))
  },
})
