import { authApi } from '#contract/auth.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import { bearerToken } from '../../plugins/app/auth.ts'
import * as auth from './service.ts'

/** /api/auth: login, logout, sign-up, password reset and the verification-code GETs (SPEC §7). */
export default defineModule({
  name: 'auth',
  routes(r) {
    const { app } = r
    r.route(authApi.login, async (request) =>
      ok(await auth.logIn(app, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] }), 'auth.welcome'),
    )
    r.route(authApi.logout, async (request) => {
      await auth.logOut(app, bearerToken(request))
      return ok(null)
    })
    r.route(authApi.registerEmail, async (request) => {
      await auth.register(app, request.body, request.log)
      return created(null, 'auth.registered')
    })
    r.route(authApi.registerPhone, async (request) => {
      await auth.register(app, request.body, request.log)
      return created(null, 'auth.registered')
    })
    r.route(authApi.forgotPassword, async (request) => {
      await auth.resetPassword(app, request.body)
      return ok(null, 'auth.passwordReset')
    })

    const codes = [
      [authApi.registerCode, 'register'],
      [authApi.phoneRegisterCode, 'register'],
      [authApi.forgotPasswordCode, 'forgot'],
      [authApi.emailCode, 'bind'],
      [authApi.phoneCode, 'bind'],
    ] as const
    for (const [endpoint, purpose] of codes) {
      r.route(endpoint, async (request) =>
        ok(await auth.sendCode(app, { purpose, query: request.query, ip: request.ip, userId: request.user?.id }), 'auth.codeSent'),
      )
    }
  },
})
