import type { FastifyInstance } from 'fastify'
import { menuForRole } from '#contract/menu.ts'

/** POST /api/user/menu — the menu tree the caller's role may see (DESIGN §3 Menu). */
export default async function menuRoutes(app: FastifyInstance) {
  app.post('/menu', { preHandler: app.authenticate, schema: { tags: ['users'] } }, async (request, reply) =>
    reply.ok(menuForRole(request.user!.role)),
  )
}
