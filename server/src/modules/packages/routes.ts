import { packagesApi } from '#contract/packages.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import * as service from './service.ts'

/** Packages (DESIGN §3 Packages): the ones on sale and buying one; admins create, edit, shelve and delete. */
export default defineModule({
  name: 'packages',
  routes(r) {
    const { app } = r
    r.route(packagesApi.list, async (request) => ok(await service.packagesOnSale(app, request.query)))
    r.route(packagesApi.buy, async (request) =>
      created(await service.buyPackage(app, { ...request.body, buyerId: request.user.id, ip: request.ip, log: request.log }), 'orders.created'),
    )
  },
  admin(r) {
    const { app } = r
    r.route(packagesApi.adminList, async (request) => ok(await service.adminPackages(app, request.query)))
    r.route(packagesApi.adminCreate, async (request) => created(await service.createPackage(app, request.body), 'subscriptions.packageCreated'))
    r.route(packagesApi.adminUpdate, async (request) => ok(await service.updatePackage(app, request.body), 'common.editSuccess'))
    // SPEC §8 package delete: 'Delete Success' or 'Delete Fail'.
    r.route(packagesApi.adminDelete, async (request) => {
      await service.deletePackage(app, request.query.id)
      return ok(null, 'common.deleteSuccess')
    })
  },
})
