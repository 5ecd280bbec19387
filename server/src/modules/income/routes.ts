import { incomeApi } from '#contract/income.ts'
import { defineModule, ok } from '../../http/module.ts'
import { incomeDaily, incomeSummary } from './service.ts'

/** Income (issue 7): the caller's own dashboard figures and daily series, as a seller. */
export default defineModule({
  name: 'income',
  routes(r) {
    const { app } = r
    r.route(incomeApi.summary, async (request) => ok(await incomeSummary(app.db, request.user.id, app.clock())))
    r.route(incomeApi.daily, async (request) => ok(await incomeDaily(app.db, request.user.id, app.clock(), request.query.days)))
  },
})
