import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { args, post, sessionCookie, statusOf, userFixture } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

beforeEach(() => {
  stub.reset()
  stub.on('GET /api/users/userInfo', { data: userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' }) })
})

const submit = async (url: string, fields: [string, string][]) => statusOf(await action(args(post(url, fields, { cookie: await sessionCookie('tok') }))))

describe('the report queue: a batch (decision 125)', () => {
  it('sends the ticked ids and comes back at the next row; nothing ticked is refused by name without asking the API', async () => {
    expect((await submit('/system/report-manage', [['intent', 'batch-take_down'], ['rows', '4,5']])).data).toEqual({ error: 'validation.batchIds' })
    expect(stub.count('/api/reports/admin/batch')).toBe(0)
    stub.on('POST /api/reports/admin/batch', { data: { results: [4, 6].map((id) => ({ id, ok: true, changed: true, msg: 'ok' })), done: 2, failed: 0 } })
    const res = await submit('/system/report-manage?pageNum=2', [
      ['intent', 'batch-take_down'],
      ['rows', '4,5,6,7'],
      ['ids', '4'],
      ['ids', '6'],
    ])
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/system/report-manage?pageNum=2#item-7')
    expect(stub.calls.find((c) => c.path === '/api/reports/admin/batch')?.body).toEqual({ ids: [4, 6], action: 'take_down' })
  })

  it('one report decided after its confirm step also comes back at the next row', async () => {
    stub.on('POST /api/reports/admin/handle', { data: null })
    const res = await submit('/system/report-manage?status=processing&take_down=5', [
      ['intent', 'take_down'],
      ['id', '5'],
      ['rows', '4,5,6'],
    ])
    expect(res.headers.get('location')).toBe('/system/report-manage?status=processing#item-6')
  })
})
