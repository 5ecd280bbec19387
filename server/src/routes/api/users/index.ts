import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { updateAlipaySchema, updateEmailSchema, updatePasswordSchema, updatePhoneSchema, updateProfileSchema } from '#contract/auth.ts'
import { adminUpdateUserSchema, idSchema, loginRecordQuerySchema, userListQuerySchema } from '#contract/users.ts'
import { authTokens, loginRecords, users } from '../../../db/schema.ts'
import { containing } from '../../../db/search.ts'
import { consumeCode } from '../../../domain/auth/codes-service.ts'
import { hashPassword, verifyPassword } from '../../../domain/auth/passwords.ts'
import { TOKEN_TTL_MS, newToken } from '../../../domain/auth/tokens.ts'
import { presentLoginRecord, presentUser } from '../../../domain/users/present.ts'
import { findUserById, takenFields, uniqueViolation } from '../../../domain/users/repository.ts'
import { conflict, invalid, notFound, tooMany } from '../../../errors.ts'
import { blockedFor, spend } from '../../../domain/auth/limits.ts'


export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const pepper = () => app.config.secrets.codePepper
  const me = (request: { user: { id: number } | null }) => request.user!.id

  app.get('/userInfo', { preHandler: app.authenticate, schema: { tags: ['users'] } }, async (request, reply) =>
    reply.ok(presentUser(request.user!)),
  )

  // POST /api/users/update — the user's own name and profile (SPEC §5: username required, profile ≤ 200).
  app.post('/update', { preHandler: app.authenticate, schema: { body: updateProfileSchema, tags: ['users'] } }, async (request, reply) => {
    const { user_name, profile } = request.body
    if ((await takenFields(app.db, { userName: user_name }, me(request))).userName) {
      throw conflict('auth.userNameTaken', { fieldErrors: { user_name: ['auth.userNameTaken'] } })
    }
    try {
      const [row] = await app.db.update(users).set({ userName: user_name, profile }).where(eq(users.id, me(request))).returning()
      return reply.ok(presentUser(row!), 'saved')
    } catch (e) {
      if (uniqueViolation(e)) throw conflict('auth.userNameTaken', { fieldErrors: { user_name: ['auth.userNameTaken'] } })
      throw e
    }
  })

  // POST /api/users/updatePassword — revokes every token of the account and answers a fresh one.
  app.post('/updatePassword', { preHandler: app.authenticate, schema: { body: updatePasswordSchema, tags: ['users'] } }, async (request, reply) => {
    const user = request.user!
    // Wrong current passwords count like failed logins, so a stolen session cannot guess the password.
    const key = `uid:${user.id}`
    const wait = await blockedFor(app.limits.loginAccount, key)
    if (wait) throw tooMany('auth.loginLocked', wait)
    if (!(await verifyPassword(user.passwordHash, request.body.oldPassword))) {
      await spend(app.limits.loginAccount, key)
      throw invalid({ oldPassword: ['auth.oldPasswordWrong'] })
    }
    await app.limits.loginAccount.delete(key)
    const passwordHash = await hashPassword(request.body.newPassword)
    const { token, tokenHash } = newToken()
    await app.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id))
      await tx.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.userId, user.id))
      await tx.insert(authTokens).values({ userId: user.id, tokenHash, expiresAt: new Date(Date.now() + TOKEN_TTL_MS) })
    })
    return reply.ok({ token }, 'auth.passwordChanged')
  })

  async function bind(userId: number, field: 'email' | 'phone', value: string, code: string) {
    if ((await takenFields(app.db, { [field]: value }, userId))[field]) {
      throw conflict(`auth.${field}Taken`, { fieldErrors: { [field]: [`auth.${field}Taken`] } })
    }
    let row: typeof users.$inferSelect | undefined
    try {
      const ok = await app.db.transaction(async (tx) => {
        const target = field === 'email' ? value.toLowerCase() : value
        if (!(await consumeCode(tx, pepper(), { purpose: 'bind', target, code, userId }))) return false
        ;[row] = await tx.update(users).set({ [field]: value }).where(eq(users.id, userId)).returning()
        return true
      })
      if (!ok) throw invalid({ verificationCode: ['auth.codeInvalid'] })
    } catch (e) {
      if (uniqueViolation(e)) throw conflict(`auth.${field}Taken`, { fieldErrors: { [field]: [`auth.${field}Taken`] } })
      throw e
    }
    return presentUser(row!)
  }

  app.post('/updateEmail', { preHandler: app.authenticate, schema: { body: updateEmailSchema, tags: ['users'] } }, async (request, reply) =>
    reply.ok(await bind(me(request), 'email', request.body.email, request.body.verificationCode), 'saved'),
  )
  // The security phone (DESIGN §3: needed to publish shares).
  app.post('/updatePhone', { preHandler: app.authenticate, schema: { body: updatePhoneSchema, tags: ['users'] } }, async (request, reply) =>
    reply.ok(await bind(me(request), 'phone', request.body.phone, request.body.verificationCode), 'saved'),
  )

  app.get('/getAlipayInfo', { preHandler: app.authenticate, schema: { tags: ['users'] } }, async (request, reply) =>
    reply.ok({ alipayRealName: request.user!.alipayRealName, alipayAccount: request.user!.alipayAccount }),
  )
  app.post('/updateAlipayInfo', { preHandler: app.authenticate, schema: { body: updateAlipaySchema, tags: ['users'] } }, async (request, reply) => {
    const [row] = await app.db
      .update(users)
      .set({ alipayRealName: request.body.alipayRealName, alipayAccount: request.body.alipayAccount })
      .where(eq(users.id, me(request)))
      .returning()
    return reply.ok({ alipayRealName: row!.alipayRealName, alipayAccount: row!.alipayAccount }, 'saved')
  })

  // POST /api/users/agreeToTerms — the sharing disclaimer (/agreement/exemptionagree); first agreement time kept.
  app.post('/agreeToTerms', { preHandler: app.authenticate, schema: { tags: ['users'] } }, async (request, reply) => {
    const [row] = await app.db
      .update(users)
      .set({ termsAgreedAt: sql`coalesce(${users.termsAgreedAt}, now())` })
      .where(eq(users.id, me(request)))
      .returning()
    return reply.ok(presentUser(row!), 'saved')
  })

  // ---- admin ----
  app.get('/list', { preHandler: app.requireAdmin, schema: { querystring: userListQuerySchema, tags: ['users', 'admin'] } }, async (request, reply) => {
    const q = request.query
    const where = and(
      q.keyword ? or(ilike(users.userName, containing(q.keyword)), ilike(users.email, containing(q.keyword)), ilike(users.phone, containing(q.keyword))) : undefined,
      q.role ? eq(users.role, q.role) : undefined,
      q.is_banned !== undefined ? eq(users.isBanned, q.is_banned) : undefined,
    )
    const [rows, [total]] = await Promise.all([
      app.db.select().from(users).where(where).orderBy(desc(users.id)).limit(q.pageSize).offset((q.pageNum - 1) * q.pageSize),
      app.db.select({ n: count() }).from(users).where(where),
    ])
    return reply.ok({ list: rows.map(presentUser), total: total?.n ?? 0, pageNum: q.pageNum, pageSize: q.pageSize })
  })

  app.get(
    '/admin/getUserById',
    { preHandler: app.requireAdmin, schema: { querystring: z.object({ id: idSchema }), tags: ['users', 'admin'] } },
    async (request, reply) => {
      const user = await findUserById(app.db, request.query.id)
      if (!user) throw notFound()
      return reply.ok(presentUser(user))
    },
  )

  // POST /api/users/admin/update — name, profile, role, status, ban. Banning revokes the user's tokens.
  app.post('/admin/update', { preHandler: app.requireAdmin, schema: { body: adminUpdateUserSchema, tags: ['users', 'admin'] } }, async (request, reply) => {
    const { id, user_name, profile, role, is_banned, status } = request.body
    const target = await findUserById(app.db, id)
    if (!target) throw notFound()
    // An admin cannot lock themselves out.
    if (id === request.user!.id && (is_banned === 1 || (role && role !== 'admin') || status === 'disabled')) {
      throw conflict('users.cannotDemoteSelf')
    }
    if (user_name && (await takenFields(app.db, { userName: user_name }, id)).userName) {
      throw conflict('auth.userNameTaken', { fieldErrors: { user_name: ['auth.userNameTaken'] } })
    }
    const row = await app.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({ userName: user_name, profile, role, isBanned: is_banned, status })
        .where(eq(users.id, id))
        .returning()
      if (is_banned === 1 || status === 'disabled') {
        await tx.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.userId, id))
      }
      return updated!
    })
    // A ban changes whether the seller's shares are for sale.
    if (is_banned !== undefined || status !== undefined) app.shareCache.invalidate()
    return reply.ok(presentUser(row), 'saved')
  })
}

/** GET /api/loginRecords/list (own) and /admin/list (all): SPEC §3 Login record. */
export async function loginRecordRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const list = async (q: z.infer<typeof loginRecordQuerySchema>, userId?: number) => {
    const where = and(
      userId ? eq(loginRecords.userId, userId) : undefined,
      q.keyword ? or(ilike(loginRecords.userName, containing(q.keyword)), ilike(loginRecords.email, containing(q.keyword)), ilike(loginRecords.ip, containing(q.keyword))) : undefined,
    )
    const [rows, [total]] = await Promise.all([
      app.db.select().from(loginRecords).where(where).orderBy(desc(loginRecords.id)).limit(q.pageSize).offset((q.pageNum - 1) * q.pageSize),
      app.db.select({ n: count() }).from(loginRecords).where(where),
    ])
    return { list: rows.map(presentLoginRecord), total: total?.n ?? 0, pageNum: q.pageNum, pageSize: q.pageSize }
  }
  app.get('/list', { preHandler: app.authenticate, schema: { querystring: loginRecordQuerySchema, tags: ['users'] } }, async (request, reply) =>
    reply.ok(await list(request.query, request.user!.id)),
  )
  app.get('/admin/list', { preHandler: app.requireAdmin, schema: { querystring: loginRecordQuerySchema, tags: ['admin'] } }, async (request, reply) =>
    reply.ok(await list(request.query)),
  )
}
