import type { FastifyRequest } from 'fastify'
import { chatApi } from '#contract/messages.ts'
import { buyerKeyOf } from '../../http/buyer-key.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import type { Caller } from './rules.ts'
import { adminChatList, adminDetails, buyerDetails, changeStatus, chatList, markAllChatsRead, openChat, sendLine, unreadCounts } from './service.ts'

/**
 * The caller of a buyer's call: the token's account, the order it names (contract: order_no) and the
 * buyer key of its browser (header x-buyer-key, decision 102).
 */
function callerOf(request: FastifyRequest, orderNo: string | undefined): Caller {
  return { userId: request.user?.id ?? null, admin: request.user?.role === 'admin', orderNo: orderNo ?? null, buyerKey: buyerKeyOf(request) }
}

/** After-sales chat (SPEC §7 /api/afterSalesChat/*, issue 10). */
export default defineModule({
  name: 'chat',
  routes(r) {
    const { app } = r
    r.route(chatApi.create, async (request) => created(await openChat(app, callerOf(request, request.body.order_no)), 'messages.chatOpened'))
    r.route(chatApi.list, async (request) => ok(await chatList(app, callerOf(request, request.query.order_no), request.query)))
    r.route(chatApi.details, async (request) => ok(await buyerDetails(app, callerOf(request, request.query.order_no), request.query.chat_id, request.query)))
    r.route(chatApi.unread, async (request) => ok(await unreadCounts(app, callerOf(request, request.query.order_no))))
    r.route(chatApi.send, async (request) =>
      created(await sendLine(app, callerOf(request, request.body.order_no), request.body.chat_id, request.body.content), 'messages.sent'),
    )
    r.route(chatApi.markAllRead, async (request) => {
      await markAllChatsRead(app, callerOf(request, request.body?.order_no))
      return ok(null, 'messages.markedRead')
    })
    r.route(chatApi.updateStatus, async (request) =>
      ok(await changeStatus(app, callerOf(request, request.body.order_no), request.body.chat_id, request.body.status), 'messages.statusChanged'),
    )
  },
  admin(r) {
    const { app } = r
    r.route(chatApi.adminList, async (request) => ok(await adminChatList(app, request.query)))
    r.route(chatApi.adminDetails, async (request) => ok(await adminDetails(app, request.query.chat_id, request.query)))
  },
})
