import { shareApi } from '#contract/shares.ts'
import { verifyVisitorId } from '#contract/visitor.server.ts'
import { defineModule, ok } from '../../http/module.ts'
import { visitorKey } from './rules.ts'
import * as service from './service.ts'

/**
 * GET /api/share?unicode= — the public share; GET /api/share?third_party_trade_no=<order no> — the
 * share of an order, with the content once paid (SPEC §4).
 */
export default defineModule({
  name: 'share',
  routes(r) {
    r.route(shareApi.lookup, async (request) => {
      const q = request.query
      if (q.third_party_trade_no) return ok(await service.shareByOrder(r.app, q.third_party_trade_no, request.log))
      const header = request.headers['x-visitor-id']
      const key = () =>
        visitorKey({
          visitorId: verifyVisitorId(typeof header === 'string' ? header : undefined, r.app.config.secrets.sessionSecret),
          ip: request.ip,
        })
      return ok(await service.shareByCode(r.app, request.user, q.unicode!, key))
    })
  },
})
