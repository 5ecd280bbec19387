import { channelsApi } from '#contract/channels.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import { adminChannels, channelsForSeller, createChannel, earningTerms, openChannelOrder, updateChannel } from './service.ts'

/** Fee channels (SPEC §3 Channel; issue 7): the make-money page's terms and offers, opening one, admin management. */
export default defineModule({
  name: 'channels',
  routes(r) {
    const { app } = r
    r.route(channelsApi.terms, async () => ok(earningTerms(app.config)))
    r.route(channelsApi.list, async (request) => ok(await channelsForSeller(app, request.user.id, request.query)))
    r.route(channelsApi.open, async (request) =>
      created(
        await openChannelOrder(app, { ...request.body, sellerId: request.user.id, ip: request.ip, log: request.log }),
        'orders.created',
      ),
    )
  },
  admin(r) {
    const { app } = r
    r.route(channelsApi.adminList, async (request) => ok(await adminChannels(app, request.query)))
    r.route(channelsApi.adminCreate, async (request) => created(await createChannel(app, request.body), 'channels.created'))
    r.route(channelsApi.adminUpdate, async (request) => ok(await updateChannel(app, request.body), 'channels.saved'))
  },
})
