import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { sharesApi } from '#contract/shares.ts'
import { args, post, sessionCookie, statusOf, userFixture } from '../../../tests/support/console.ts'
import { toastCookie } from '#app/.server/session.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' }) })
})

/** An answer of /api/shares/admin/update as its response schema has it (the double on main checks). */
const share = {
  id: 12,
  unicode: 'AbCd2345',
  title: 'Notes',
  type: 'text',
  price: 9.9,
  user_name: 'seller',
  visit_count: 0,
  purchase_count: 0,
  status: 'approved',
  subscription_status: 'close',
  created_at: '2026-11-23T01:00:00.000Z',
} as const

const submit = async (url: string, fields: [string, string][]) => statusOf(await action(args(post(url, fields, { cookie: await sessionCookie('tok') }))))
const toastOf = async (res: { headers: Headers }) => ((await toastCookie.parse(res.headers.get('set-cookie'))) as { toast: { key: string } }).toast

describe('the share review queue (no JavaScript)', () => {
  it("a row's approve says the share was approved (not 'edit succeeded'), and the queue goes on at the next row", async () => {
    stub.on(sharesApi.adminUpdate, { data: share, msg: 'common.editSuccess' })
    const res = await submit('/system/share-manage?status=under_review', [
      ['intent', 'approve:12'],
      ['rows', '11,12,13'],
    ])
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/system/share-manage?status=under_review#item-13')
    expect((await toastOf(res)).key).toBe('shares.moved.approve')
    expect(stub.callsTo(sharesApi.adminUpdate)[0]?.body).toEqual({ id: 12, status: 'approved' })
  })

  it('a taken-down share recovered from its row says so; a ban after its confirm step says banned', async () => {
    stub.on(sharesApi.adminUpdate, { data: share, msg: 'common.editSuccess' })
    expect((await toastOf(await submit('/system/share-manage', [['intent', 'recover:5']]))).key).toBe('shares.moved.recover')
    expect((await toastOf(await submit('/system/share-manage?ban=5', [['intent', 'ban'], ['id', '5']]))).key).toBe('shares.moved.ban')
  })

  it('batch approve sends the ticked ids; nothing ticked is refused by name without asking the API', async () => {
    expect((await submit('/system/share-manage', [['intent', 'batch-approve'], ['rows', '1,2']])).data).toMatchObject({ intent: 'batch', error: 'validation.batchIds', confirmLogout: false })
    expect(stub.count('/api/shares/admin/batch')).toBe(0)
    stub.on(sharesApi.adminBatch, {
      data: { results: [1, 2].map((id) => ({ id, ok: true, changed: true, msg: 'shares.moved.approve' })), done: 2, failed: 0 },
    })
    const res = await submit('/system/share-manage?status=under_review', [
      ['intent', 'batch-approve'],
      ['rows', '1,2,3'],
      ['ids', '1'],
      ['ids', '2'],
    ])
    expect(res.headers.get('location')).toBe('/system/share-manage?status=under_review#item-3')
    expect(stub.callsTo(sharesApi.adminBatch)[0]?.body).toEqual({ ids: [1, 2], move: 'approve' })
    expect(await toastOf(res)).toEqual({ type: 'success', key: 'common.queue.done', values: { done: '2' } })
  })
})
