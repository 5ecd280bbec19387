import { subscriptionsApi } from '#contract/subscriptions.ts'
import { defineModule, ok } from '../../http/module.ts'
import * as service from './service.ts'

/** Subscriptions (DESIGN §3): mine with today's free unlocks, a free unlock of a share; admins list them all. */
export default defineModule({
  name: 'subscriptions',
  routes(r) {
    const { app } = r
    r.route(subscriptionsApi.list, async (request) => ok(await service.mySubscriptions(app, request.user.id, request.query)))
    r.route(subscriptionsApi.unlock, async (request) => {
      const unlocked = await service.unlockShare(app, request.user, request.body.unicode, request.ip)
      return ok(unlocked, unlocked.already ? 'subscriptions.alreadyYours' : 'subscriptions.unlocked')
    })
  },
  admin(r) {
    const { app } = r
    r.route(subscriptionsApi.adminList, async (request) => ok(await service.adminSubscriptions(app, request.query)))
  },
})
