import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { appealsApi, reportsApi } from '#contract/moderation.ts'
import { args, post, sessionCookie, statusOf, userFixture } from '../../tests/support/console.ts'
import { action as appealAction } from '../routes/_app.system.appeal-manage/route.tsx'
import { action as reportAction } from '../routes/_app.system.report-manage/route.tsx'

const stub = await vi.hoisted(async () => (await import('../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' }) })
})

const queues = [
  { name: 'reports', url: '/system/report-manage', action: reportAction, intent: 'batch-take_down', endpoint: reportsApi.adminBatch, move: { action: 'take_down' } },
  { name: 'appeals', url: '/system/appeal-manage', action: appealAction, intent: 'batch-approve', endpoint: appealsApi.adminBatch, move: { action: 'approve' } },
] as const

describe.each(queues)('the $name queue: a batch (decision 125)', (q) => {
  const submit = async (url: string, fields: [string, string][]) => statusOf(await q.action(args(post(url, fields, { cookie: await sessionCookie('tok') }))))

  it('sends the ticked ids and comes back at the next row; nothing ticked is refused by name without asking the API', async () => {
    expect((await submit(q.url, [['intent', q.intent], ['rows', '4,5']])).data).toEqual({ intent: 'batch', error: 'validation.batchIds', confirmLogout: false, sent: { ids: [], values: {} } })
    expect(stub.count(q.endpoint)).toBe(0)
    stub.on(q.endpoint, { data: { results: [4, 6].map((id) => ({ id, ok: true, changed: true, msg: 'ok' })), done: 2, failed: 0 } })
    const res = await submit(`${q.url}?pageNum=2`, [
      ['intent', q.intent],
      ['rows', '4,5,6,7'],
      ['ids', '4'],
      ['ids', '6'],
    ])
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${q.url}?pageNum=2#item-7`)
    expect(stub.callsTo(q.endpoint)[0]?.body).toEqual({ ids: [4, 6], ...q.move })
  })
})

describe('a single decision', () => {
  it('after its confirm step also comes back at the next row', async () => {
    const report = {
      id: 5,
      reason: 'fraud',
      unicode: 'AbCd2345',
      share_id: 3,
      share_title: 'Notes',
      description: '',
      status: 'handled',
      share_status: 'approved',
      current_share_status: 'reported_invalid',
      reporter_ip: '203.0.113.9',
      reporter_name: null,
      action: 'take_down',
      handled_by: 'admin',
      handled_at: '2026-11-27T01:00:00.000Z',
      created_at: '2026-11-26T01:00:00.000Z',
    }
    stub.on(reportsApi.adminHandle, { data: { report, share_status: 'reported_invalid', handled: 1 } })
    const res = statusOf(
      await reportAction(
        args(
          post(
            '/system/report-manage?status=processing&take_down=5',
            [
              ['intent', 'take_down'],
              ['id', '5'],
              ['rows', '4,5,6'],
            ],
            { cookie: await sessionCookie('tok') },
          ),
        ),
      ),
    )
    expect(res.headers.get('location')).toBe('/system/report-manage?status=processing#item-6')
  })
})
