import { loginRecordsApi, usersApi } from '#contract/users.ts'
import { defineModule, ok } from '../../http/module.ts'
import * as users from './service.ts'

/** /api/users (own account; admin: every account) and /api/loginRecords (SPEC §3 Login record). */
export default defineModule({
  name: 'users',
  routes(r) {
    const { app } = r
    r.route(usersApi.userInfo, async (request) => ok(users.me(request.user)))
    r.route(usersApi.update, async (request) => ok(await users.updateProfile(app, request.user.id, request.body), 'saved'))
    r.route(usersApi.updatePassword, async (request) => ok(await users.changePassword(app, request.user, request.body), 'auth.passwordChanged'))
    r.route(usersApi.updateEmail, async (request) =>
      ok(await users.bindAddress(app, request.user.id, 'email', request.body.email, request.body.verificationCode), 'saved'),
    )
    // The security phone (DESIGN §3: needed to publish shares).
    r.route(usersApi.updatePhone, async (request) =>
      ok(await users.bindAddress(app, request.user.id, 'phone', request.body.phone, request.body.verificationCode), 'saved'),
    )
    r.route(usersApi.getAlipayInfo, async (request) => ok(users.alipayInfo(request.user)))
    r.route(usersApi.updateAlipayInfo, async (request) => ok(await users.updateAlipay(app, request.user.id, request.body), 'saved'))
    r.route(usersApi.agreeToTerms, async (request) => ok(await users.agreeToTerms(app, request.user.id), 'saved'))
    r.route(loginRecordsApi.list, async (request) => ok(await users.ownLoginRecords(app, request.user.id, request.query)))
  },
  admin(r) {
    const { app } = r
    r.route(usersApi.list, async (request) => ok(await users.listUsers(app, request.query)))
    r.route(usersApi.getUserById, async (request) => ok(await users.getUser(app, request.query.id)))
    r.route(usersApi.adminUpdate, async (request) => ok(await users.adminUpdate(app, request.user.id, request.body), 'saved'))
    r.route(loginRecordsApi.adminList, async (request) => ok(await users.allLoginRecords(app, request.query)))
  },
})
