import { linksApi } from '#contract/links.ts'
import { buyerKeyOf } from '../../http/buyer-key.ts'
import { defineModule, ok } from '../../http/module.ts'
import * as service from './service.ts'

/** Dead links (issue 25): the buyer's refund request; the admin's check now, list, history and rates. */
export default defineModule({
  name: 'linkcheck',
  routes(r) {
    // The checks other modules ask for (publish, edit, report) run through here once the app is built.
    r.app.links.recorder = (id, trigger) => service.checkShare(r.app, id, trigger)
    r.route(linksApi.refund, async (request) =>
      ok(await service.requestDeadLinkRefund(r.app, { userId: request.user?.id ?? null, buyerKey: buyerKeyOf(request) }, request.body.orderNo), 'links.refund.requested'),
    )
  },
  admin(r) {
    r.route(linksApi.checkNow, async (request) => ok(await service.checkShare(r.app, request.body.id, 'admin')))
    r.route(linksApi.adminList, async (request) => ok(await service.adminLinks(r.app, request.query)))
    r.route(linksApi.history, async (request) => ok(await service.linkHistory(r.app, request.query.id)))
    r.route(linksApi.sellerRates, async () => ok(await service.worstSellerRates(r.app.db)))
    r.route(linksApi.sellerRate, async (request) => ok(await service.sellerLinkRate(r.app.db, request.query.user_id)))
  },
})
