import { SHARE_ADMIN_MOVES, sharesApi } from '#contract/shares.ts'
import { eachItem } from '../../http/batch.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import * as service from './service.ts'

/** Seller and admin share management (SPEC §7 /api/shares/*). */
export default defineModule({
  name: 'shares',
  routes(r) {
    r.route(sharesApi.new, async (request) => created(await service.createShare(r.app, request.user, request.body), 'shares.created'))
    r.route(sharesApi.update, async (request) => ok(await service.updateShare(r.app, request.user, request.body), 'shares.updated'))
    r.route(sharesApi.list, async (request) => ok(await service.listShares(r.app, request.query, request.user.id)))
    r.route(sharesApi.detail, async (request) => ok(await service.shareDetail(r.app, request.user, request.query.id)))
    // SPEC §7 keeps GET for the delete.
    r.route(sharesApi.delete, async (request) => {
      await service.deleteShare(r.app, request.user, request.query.id)
      return ok(null, 'shares.deleted')
    })
  },
  admin(r) {
    r.route(sharesApi.adminList, async (request) => ok(await service.listShares(r.app, request.query)))
    r.route(sharesApi.adminUpdate, async (request) => ok(await service.adminUpdateShare(r.app, request.user.id, request.body), 'common.editSuccess'))
    r.route(sharesApi.adminContents, async (request) => ok(await service.adminShareContents(r.app, request.query.ids)))
    r.route(sharesApi.adminBatch, async (request) => {
      const to = SHARE_ADMIN_MOVES[request.body.move]
      return ok(
        await eachItem(request.body.ids, async (id) => {
          const { changed } = await service.adminMoveShare(r.app, request.user.id, id, to)
          return { changed, msg: changed ? `shares.moved.${request.body.move}` : 'shares.moved.already' }
        }),
      )
    })
  },
})
