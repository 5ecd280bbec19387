import { oversightApi } from '#contract/oversight.ts'
import { defineModule, ok } from '../../http/module.ts'
import { fraudAction, fraudPreview, sellerHistory, userDetail } from './service.ts'

/** Admin oversight of accounts (issue 9 B): one user's view, and "ban seller and refund buyers". */
export default defineModule({
  name: 'oversight',
  admin(r) {
    const { app } = r
    r.route(oversightApi.sellerHistory, async (request) => ok(await sellerHistory(app, request.query.names)))
    r.route(oversightApi.userDetail, async (request) => ok(await userDetail(app, request.query.id)))
    r.route(oversightApi.fraudPreview, async (request) => ok(await fraudPreview(app, request.query.id)))
    r.route(oversightApi.fraudAction, async (request) => ok(await fraudAction(app, request.user.id, request.body.id, request.log), 'oversight.fraud.done'))
  },
})
