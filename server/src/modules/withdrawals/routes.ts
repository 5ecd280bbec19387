import { withdrawalsApi } from '#contract/withdrawals.ts'
import { eachItem } from '../../http/batch.ts'
import { created, defineModule, ok } from '../../http/module.ts'
import { createWithdrawal, payoutWithdrawal, previewWithdrawal, processWithdrawal, rejectWithdrawal, withdrawalPage } from './service.ts'

/** Withdrawals (DESIGN §3): a seller's request, preview and history; the admin queue, processing, rejection and Alipay payout. */
export default defineModule({
  name: 'withdrawals',
  routes(r) {
    const { app } = r
    r.route(withdrawalsApi.create, async (request) => created(await createWithdrawal(app, request.user.id, request.body.amount), 'withdrawals.created'))
    r.route(withdrawalsApi.preview, async (request) => ok(await previewWithdrawal(app, request.user.id, request.query.amount)))
    r.route(withdrawalsApi.list, async (request) => ok(await withdrawalPage(app, request.query, { userId: request.user.id })))
  },
  admin(r) {
    const { app } = r
    r.route(withdrawalsApi.adminList, async (request) => ok({ ...(await withdrawalPage(app, request.query, {})), alipayPayout: Boolean(app.payments.payout) }))
    r.route(withdrawalsApi.adminProcess, async (request) => {
      const r = await processWithdrawal(app, request.user.id, request.body.id, request.body.transaction_order, request.log)
      return ok(r.withdrawal, r.changed ? 'withdrawals.processed' : 'withdrawals.alreadyProcessed')
    })
    r.route(withdrawalsApi.adminReject, async (request) => {
      const r = await rejectWithdrawal(app, request.user.id, request.body.id, request.body.reason, request.log)
      return ok(r.withdrawal, r.changed ? 'withdrawals.rejected' : 'withdrawals.alreadyRejected')
    })
    r.route(withdrawalsApi.adminBatchProcess, async (request) =>
      ok(
        await eachItem(request.body.ids, async (id) => {
          const { changed } = await processWithdrawal(app, request.user.id, id, request.body.transaction_order, request.log)
          return { changed, msg: changed ? 'withdrawals.processed' : 'withdrawals.alreadyProcessed' }
        }),
      ),
    )
    r.route(withdrawalsApi.adminBatchReject, async (request) =>
      ok(
        await eachItem(request.body.ids, async (id) => {
          const { changed } = await rejectWithdrawal(app, request.user.id, id, request.body.reason, request.log)
          return { changed, msg: changed ? 'withdrawals.rejected' : 'withdrawals.alreadyRejected' }
        }),
      ),
    )
    r.route(withdrawalsApi.adminPayout, async (request) => {
      const r = await payoutWithdrawal(app, request.user.id, request.body.id, request.log)
      return ok(r.withdrawal, r.changed ? 'withdrawals.paidOut' : 'withdrawals.alreadyPaidOut')
    })
  },
})
