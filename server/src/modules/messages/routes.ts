import { messagesApi, notificationsApi } from '#contract/messages.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import {
  adminMessages,
  adminNotifications,
  adminSend,
  createNotification,
  editNotification,
  markAllRead,
  myMessages,
  removeNotification,
  replyToPlatform,
  userNotifications,
} from './service.ts'

/** Private messages and system notifications (issue 10). */
export default defineModule({
  name: 'messages',
  routes(r) {
    const { app } = r
    r.route(messagesApi.list, async (request) => ok(await myMessages(app, request.user.id, request.query)))
    r.route(messagesApi.send, async (request) => created(await replyToPlatform(app, request.user.id, request.body.content), 'messages.sent'))
    r.route(messagesApi.markAllRead, async (request) => {
      await markAllRead(app, request.user.id)
      return ok(null, 'messages.markedRead')
    })
    r.route(notificationsApi.list, async (request) => ok(await userNotifications(app, request.user.id, request.query)))
  },
  admin(r) {
    const { app } = r
    r.route(messagesApi.adminList, async (request) => ok(await adminMessages(app, request.query)))
    r.route(messagesApi.adminSend, async (request) => created(await adminSend(app, request.user.id, request.body.username, request.body.content), 'messages.sent'))
    r.route(notificationsApi.adminList, async (request) => ok(await adminNotifications(app, request.query)))
    r.route(notificationsApi.adminCreate, async (request) => created(await createNotification(app, request.user.id, request.body), 'messages.notificationCreated'))
    r.route(notificationsApi.adminUpdate, async (request) => ok(await editNotification(app, request.body.id, request.body), 'messages.notificationUpdated'))
    r.route(notificationsApi.adminDelete, async (request) => {
      await removeNotification(app, request.query.id)
      return ok(null, 'messages.notificationDeleted')
    })
  },
})
