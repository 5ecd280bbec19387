import { and, eq, gt } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { authTokens, users } from '../../db/schema/index.ts'
import { hashToken, mayLogIn } from '../../modules/credentials/index.ts'
import { forbidden, unauthorized } from '../../errors.ts'

export type AuthUser = typeof users.$inferSelect & { tokenId: number }

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid bearer token of a non-banned user is sent (`auth.banned` for a banned one's). */
    authenticate: (request: FastifyRequest) => Promise<void>
    /** preHandler: sets `request.user` when a valid token is sent, and lets anonymous callers through. */
    identify: (request: FastifyRequest) => Promise<void>
    /** preHandler: authenticate, then 403 unless the user is an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const m = /^Bearer\s+(\S+)$/i.exec(header)
  return m?.[1] ?? null
}

/** Resolves `request.user` from `Authorization: Bearer <token>` (DESIGN §3: opaque, hashed, 30 days). */
export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('user', null)

    /** The caller, `banned` for a token of a banned or disabled account, or null. */
    async function loadUser(request: FastifyRequest): Promise<AuthUser | 'banned' | null> {
      const token = bearerToken(request)
      if (!token || token.length > 200) return null
      const [row] = await app.db
        .select({ user: users, tokenId: authTokens.id, revokedAt: authTokens.revokedAt })
        .from(authTokens)
        .innerJoin(users, eq(users.id, authTokens.userId))
        .where(and(eq(authTokens.tokenHash, hashToken(token)), gt(authTokens.expiresAt, new Date())))
        .limit(1)
      if (!row) return null
      // The ban revoked the account's tokens, but whoever holds one is the account's owner: tell them
      // why they are out, rather than a bare 401 that looks like an expired session.
      if (!mayLogIn(row.user)) return 'banned'
      if (row.revokedAt) return null
      return { ...row.user, tokenId: row.tokenId }
    }

    async function requireUser(request: FastifyRequest) {
      const user = await loadUser(request)
      if (user === 'banned') throw unauthorized('auth.banned')
      if (!user) throw unauthorized()
      request.user = user
      return user
    }

    app.decorate('authenticate', async (request: FastifyRequest) => {
      await requireUser(request)
    })
    app.decorate('identify', async (request: FastifyRequest) => {
      const user = await loadUser(request)
      request.user = user === 'banned' ? null : user
    })
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      if ((await requireUser(request)).role !== 'admin') throw forbidden()
    })
  },
  { name: 'auth', dependencies: ['services'] },
)
