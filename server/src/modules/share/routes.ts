import { shareApi } from '#contract/shares.ts'
import { verifyVisitorId } from '#contract/visitor.server.ts'
import { buyerKeyOf } from '../../http/buyer-key.ts'
import { defineModule, ok } from '../../http/module.ts'
import { visitorKey } from './rules.ts'
import * as service from './service.ts'

/**
 * GET /api/share?unicode= — the public share; GET /api/share?third_party_trade_no=<order no> — the
 * share of an order, with the content once paid (SPEC §4); the `x-buyer-key` header tells the browser
 * that paid (decision 102).
 */
export default defineModule({
  name: 'share',
  routes(r) {
    r.route(shareApi.lookup, async (request) => {
      const q = request.query
      const header = request.headers['x-visitor-id']
      const visitorId = () => verifyVisitorId(typeof header === 'string' ? header : undefined, r.app.config.secrets.sessionSecret)
      // Kept with a reveal of an order's content (decision 102).
      const from = () => ({ visitorId: visitorId(), ip: request.ip })
      if (q.third_party_trade_no) {
        const lookup = { orderNo: q.third_party_trade_no, viewer: request.user, buyerKey: buyerKeyOf(request), from }
        return ok(await service.shareByOrder(r.app, lookup, request.log))
      }
      const key = () => visitorKey({ visitorId: visitorId(), ip: request.ip })
      return ok(await service.shareByCode(r.app, request.user, q.unicode!, key, from))
    })
  },
})
