import { eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { codeTargetQuerySchema, forgotPasswordSchema, loginSchema, registerEmailSchema, registerPhoneSchema } from '#contract/auth.ts'
import { authTokens, loginRecords, users } from '../../../db/schema.ts'
import { type CodePurpose, type CodeTarget, consumeCode, issueCode, targetOf } from '../../../domain/auth/codes-service.ts'
import { blockedFor, spend } from '../../../domain/auth/limits.ts'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../../domain/auth/passwords.ts'
import { TOKEN_TTL_MS, newToken } from '../../../domain/auth/tokens.ts'
import { describeUserAgent } from '../../../domain/auth/user-agent.ts'
import { findUserByEmailOrPhone, findUserByLogin, takenFields, uniqueViolation } from '../../../domain/users/repository.ts'
import { conflict, forbidden, invalid, tooMany, unauthorized } from '../../../errors.ts'
import { bearerToken } from '../../../plugins/app/auth.ts'
import type { CodeSender } from '../../../providers/codes.ts'
import { hashToken } from '../../../domain/auth/tokens.ts'


/** The lookup key for the address a code goes to. */
const accountOf = (t: CodeTarget) => (t.channel === 'sms' ? { phone: t.target } : { email: t.target })

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const pepper = () => app.config.secrets.codePepper

  // POST /api/auth/login — user name, email or phone plus password (DESIGN §3).
  app.post('/login', { schema: { body: loginSchema, tags: ['auth'] } }, async (request, reply) => {
    const { username, password } = request.body
    const accountKey = username.trim().toLowerCase()
    const wait = Math.max(await blockedFor(app.limits.loginIp, request.ip), await blockedFor(app.limits.loginAccount, accountKey))
    if (wait) throw tooMany('auth.loginLocked', wait)

    const user = await findUserByLogin(app.db, username)
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password)
    if (!user || !valid) {
      await spend(app.limits.loginIp, request.ip)
      await spend(app.limits.loginAccount, accountKey)
      throw unauthorized('auth.badCredentials')
    }
    if (user.isBanned === 1 || user.status !== 'active') throw forbidden('auth.banned')
    await app.limits.loginAccount.delete(accountKey)

    const { token, tokenHash } = newToken()
    const ua = describeUserAgent(request.headers['user-agent'])
    const now = new Date()
    await app.db.transaction(async (tx) => {
      await tx.insert(authTokens).values({ userId: user.id, tokenHash, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) })
      await tx.insert(loginRecords).values({ userId: user.id, email: user.email, userName: user.userName, browser: ua.browser, device: ua.device, ip: request.ip })
      await tx.update(users).set({ lastLoginIp: request.ip, lastLoginTime: now }).where(eq(users.id, user.id))
    })
    return reply.ok({ token }, 'auth.welcome')
  })

  // POST /api/auth/logout — revokes the token; later calls with it get 401.
  app.post('/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    const token = bearerToken(request)
    if (token && token.length <= 200) {
      await app.db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, hashToken(token)))
    }
    return reply.ok(null)
  })

  async function register(request: FastifyRequest, body: { user_name: string; password: string; verificationCode: string; email?: string; phone?: string }) {
    const taken = await takenFields(app.db, { userName: body.user_name, email: body.email, phone: body.phone })
    if (taken.userName) throw conflict('auth.userNameTaken', { fieldErrors: { user_name: ['auth.userNameTaken'] } })
    if (taken.email) throw conflict('auth.emailTaken', { fieldErrors: { email: ['auth.emailTaken'] } })
    if (taken.phone) throw conflict('auth.phoneTaken', { fieldErrors: { phone: ['auth.phoneTaken'] } })
    const passwordHash = await hashPassword(body.password)
    const target = body.phone ?? body.email!.toLowerCase()
    let created = false
    try {
      created = await app.db.transaction(async (tx) => {
        if (!(await consumeCode(tx, pepper(), { purpose: 'register', target, code: body.verificationCode }))) return false
        await tx.insert(users).values({ userName: body.user_name, email: body.email ?? null, phone: body.phone ?? null, passwordHash })
        return true
      })
    } catch (e) {
      // Two sign-ups racing for one name: the unique index decides.
      // Two sign-ups racing: the unique index that fired names the field.
      const constraint = uniqueViolation(e)
      if (constraint === 'users_email_key') throw conflict('auth.emailTaken', { fieldErrors: { email: ['auth.emailTaken'] } })
      if (constraint === 'users_phone_key') throw conflict('auth.phoneTaken', { fieldErrors: { phone: ['auth.phoneTaken'] } })
      if (constraint) throw conflict('auth.userNameTaken', { fieldErrors: { user_name: ['auth.userNameTaken'] } })
      throw e
    }
    if (!created) throw invalid({ verificationCode: ['auth.codeInvalid'] })
    request.log.info({ user_name: body.user_name }, 'registered')
  }

  app.post('/register/email', { schema: { body: registerEmailSchema, tags: ['auth'] } }, async (request, reply) => {
    await register(request, request.body)
    return reply.ok(null, 'auth.registered', 201)
  })
  app.post('/register/phone', { schema: { body: registerPhoneSchema, tags: ['auth'] } }, async (request, reply) => {
    await register(request, request.body)
    return reply.ok(null, 'auth.registered', 201)
  })

  // POST /api/auth/forgotPassword — new password by a code sent to the account's email or phone.
  app.post('/forgotPassword', { schema: { body: forgotPasswordSchema, tags: ['auth'] } }, async (request, reply) => {
    const body = request.body
    const t = targetOf(body)
    if (!t) throw invalid({ email: ['validation.emailOrPhone'] })
    // The account is the one the code was sent to (phone first, as targetOf decides), never another field.
    const user = await findUserByEmailOrPhone(app.db, accountOf(t))
    const passwordHash = await hashPassword(body.password)
    const done = await app.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, pepper(), { purpose: 'forgot', target: t.target, code: body.verificationCode }))) return false
      if (!user) return false
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id))
      // DESIGN §3: tokens are revoked on password change.
      await tx.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.userId, user.id))
      return true
    })
    if (!done) throw invalid({ verificationCode: ['auth.codeInvalid'] })
    return reply.ok(null, 'auth.passwordReset')
  })

  // The code GETs of SPEC §7; each takes ?email= or ?phone=.
  const codeRoute = (
    url: string,
    purpose: CodePurpose,
    opts: { requireAuth?: boolean; onlyExisting?: boolean; onlyNew?: boolean } = {},
  ) =>
    app.get(
      url,
      { schema: { querystring: codeTargetQuerySchema, tags: ['auth'] }, preHandler: opts.requireAuth ? app.authenticate : undefined },
      async (request, reply) => {
        const t = targetOf(request.query)
        if (!t) throw invalid({ email: ['validation.emailOrPhone'] })
        const wait = await spend(app.limits.codeIp, request.ip)
        if (wait) throw tooMany('errors.rateLimited', wait)
        const existing = await findUserByEmailOrPhone(app.db, accountOf(t))
        if (opts.onlyNew && existing) {
          const field = t.channel === 'sms' ? 'phone' : 'email'
          throw conflict(field === 'phone' ? 'auth.phoneTaken' : 'auth.emailTaken', { fieldErrors: { [field]: [field === 'phone' ? 'auth.phoneTaken' : 'auth.emailTaken'] } })
        }
        const provider = t.channel === 'sms' ? app.providers.sms : app.providers.mail
        // Forgot password behaves the same whether or not the account exists (no enumeration): a code
        // is issued and throttled alike, it just goes nowhere and can never match an account.
        const sender: CodeSender = opts.onlyExisting && !existing ? { kind: provider.kind, send: async () => {} } : provider
        const r = await issueCode(app.db, { pepper: pepper(), sender }, { ...t, purpose, userId: request.user?.id, ip: request.ip })
        return reply.ok({ ...r, delivery: provider.kind === 'outbox' ? 'outbox' : 'sent' }, 'auth.codeSent')
      },
    )

  codeRoute('/getRegisterVerificationCode', 'register', { onlyNew: true })
  codeRoute('/getPhoneRegisterVerificationCode', 'register', { onlyNew: true })
  codeRoute('/getForgotPasswordrVerificationCode', 'forgot', { onlyExisting: true })
  codeRoute('/getEmailVerificationCode', 'bind', { requireAuth: true, onlyNew: true })
  codeRoute('/getPhoneVerificationCode', 'bind', { requireAuth: true, onlyNew: true })
}

