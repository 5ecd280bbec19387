import { and, eq, gt, isNull } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { authTokens, users } from '../../db/schema.ts'
import { hashToken } from '../../modules/auth/tokens.ts'
import { forbidden, unauthorized } from '../../errors.ts'

export type AuthUser = typeof users.$inferSelect & { tokenId: number }

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid bearer token of a non-banned user is sent. */
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

    async function loadUser(request: FastifyRequest) {
      const token = bearerToken(request)
      if (!token || token.length > 200) return null
      const [row] = await app.db
        .select({ user: users, tokenId: authTokens.id })
        .from(authTokens)
        .innerJoin(users, eq(users.id, authTokens.userId))
        .where(and(eq(authTokens.tokenHash, hashToken(token)), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, new Date())))
        .limit(1)
      if (!row || row.user.isBanned === 1 || row.user.status !== 'active') return null
      return { ...row.user, tokenId: row.tokenId }
    }

    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.user = await loadUser(request)
      if (!request.user) throw unauthorized()
    })
    app.decorate('identify', async (request: FastifyRequest) => {
      request.user = await loadUser(request)
    })
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      request.user = await loadUser(request)
      if (!request.user) throw unauthorized()
      if (request.user.role !== 'admin') throw forbidden()
    })
  },
  { name: 'auth', dependencies: ['services'] },
)
