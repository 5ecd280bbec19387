import { appealsApi, reportsApi } from '#contract/moderation.ts'
import { eachItem } from '../../http/batch.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import * as service from './service.ts'

/** Reports and appeals (issue 9, SPEC §4): a visitor reports a share, a seller appeals its take-down, admins decide. */
export default defineModule({
  name: 'moderation',
  routes(r) {
    const { app } = r
    r.route(reportsApi.create, async (request) =>
      created(await service.createReport(app, { ...request.body, ip: request.ip, userId: request.user?.id ?? null }), 'moderation.reported'),
    )
    r.route(reportsApi.status, async (request) => ok(await service.reportStatus(app, request.query.id, request.query.unicode)))
    r.route(appealsApi.create, async (request) => created(await service.createAppeal(app, request.user.id, request.body.unicode, request.body.description), 'moderation.appealed'))
    r.route(appealsApi.mine, async (request) => ok(await service.myTakedowns(app, request.user.id)))
  },
  admin(r) {
    const { app } = r
    r.route(reportsApi.adminList, async (request) => ok(await service.reportPage(app, request.query)))
    r.route(reportsApi.adminHandle, async (request) => {
      const { changed, ...result } = await service.handleReport(app, request.user.id, request.body.id, request.body.action)
      return ok(result, changed ? 'moderation.reportDone' : 'moderation.reportAlreadyDone')
    })
    r.route(reportsApi.adminBatch, async (request) =>
      ok(
        await eachItem(request.body.ids, async (id) => {
          const { changed } = await service.handleReport(app, request.user.id, id, request.body.action)
          return { changed, msg: changed ? 'moderation.reportDone' : 'moderation.reportAlreadyDone' }
        }),
      ),
    )
    r.route(appealsApi.adminList, async (request) => ok(await service.appealPage(app, request.query)))
    r.route(appealsApi.adminHandle, async (request) => {
      const { appeal, changed } = await service.handleAppeal(app, request.user.id, request.body.id, request.body.action)
      return ok(appeal, changed ? 'moderation.appealDone' : 'moderation.appealAlreadyDone')
    })
    r.route(appealsApi.adminBatch, async (request) =>
      ok(
        await eachItem(request.body.ids, async (id) => {
          const { changed } = await service.handleAppeal(app, request.user.id, id, request.body.action)
          return { changed, msg: changed ? 'moderation.appealDone' : 'moderation.appealAlreadyDone' }
        }),
      ),
    )
  },
})
