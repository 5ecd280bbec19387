import { outboxApi } from '#contract/outbox.ts'
import { notFound } from '../../errors.ts'
import { defineModule, ok } from '../../http/module.ts'
import { listOutbox } from './repository.ts'

/** GET /api/dev/outbox — codes held back while no real mail or SMS provider is configured (admin). */
export default defineModule({
  name: 'outbox',
  admin(r) {
    const { app } = r
    r.route(outboxApi.list, async (request) => {
      // With real providers there is nothing to show: the page does not exist.
      if (app.providers.mail.kind !== 'outbox' && app.providers.sms.kind !== 'outbox') throw notFound()
      const { pageNum, pageSize } = request.query
      const rows = await listOutbox(app.db, request.query)
      return ok({
        list: rows.map((r) => ({ id: r.id, channel: r.channel, to: r.to, code: r.code, purpose: r.purpose, created_at: r.createdAt.toISOString() })),
        pageNum,
        pageSize,
      })
    })
  },
})
