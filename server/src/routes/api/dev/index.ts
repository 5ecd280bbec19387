import { desc } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { pageQuerySchema } from '#contract/users.ts'
import { outboxMessages } from '../../../db/schema.ts'
import { notFound } from '../../../errors.ts'

/** GET /api/dev/outbox — codes held back while no real mail or SMS provider is configured (admin). */
export default async function devRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/outbox', { preHandler: app.requireAdmin, schema: { querystring: pageQuerySchema, tags: ['admin'] } }, async (request, reply) => {
    if (app.providers.mail.kind !== 'outbox' && app.providers.sms.kind !== 'outbox') throw notFound()
    const { pageNum, pageSize } = request.query
    const rows = await app.db
      .select()
      .from(outboxMessages)
      .orderBy(desc(outboxMessages.id))
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
    return reply.ok({
      list: rows.map((r) => ({ id: r.id, channel: r.channel, to: r.to, code: r.code, purpose: r.purpose, created_at: r.createdAt.toISOString() })),
      pageNum,
      pageSize,
    })
  })
}
