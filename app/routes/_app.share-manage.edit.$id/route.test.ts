import { afterAll, describe, expect, it, vi } from 'vitest'
import { type DataOf } from '#contract/http.ts'
import { usersApi } from '#contract/users.ts'
import { sharesApi } from '#contract/shares.ts'
import { args, post, sessionCookie, statusOf } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const SHARE = {
  id: 5,
  unicode: 'AbCd2345',
  title: 'Notes',
  type: 'text',
  content: 'secret',
  extraction_code: null,
  price: 9.9,
  user_name: 'ada',
  visit_count: 0,
  purchase_count: 0,
  status: 'approved',
  subscription_status: 'close',
  created_at: '2026-11-01T00:00:00.000Z',
} satisfies DataOf<typeof sharesApi.detail>
stub.on(usersApi.userInfo, { data: { id: 1, uid: 1, user_name: 'ada', email: null, phone: '13800138000', role: 'user', status: 'active', profile: '', is_banned: 0, last_login_iP: null, last_login_time: null, terms_agreed_at: null, alipayRealName: null, alipayAccount: null, created_at: '2026-11-01T00:00:00.000Z' } })
stub.on(sharesApi.detail, { data: SHARE })
stub.on(sharesApi.update, ({ body }) => ({ data: { ...SHARE, ...(body as object) } }))

const edit = async (price: string) =>
  action(args(post('/share-manage/edit/5', { title: 'Notes', type: 'text', content: 'secret', extraction_code: '', price, subscription_status: 'close' }, { cookie: await sessionCookie('tok') }), { id: '5' }))

describe('editing a share sends only what changed', () => {
  it('the same price written differently (9.90 for ¥9.90) is no change: nothing sent', async () => {
    expect(statusOf(await edit('9.90')).headers.get('location')).toBe('/share-manage/search-table')
    expect(stub.count(sharesApi.update)).toBe(0)
  })

  it('a new price is sent alone', async () => {
    await edit('9.91')
    expect(stub.callsTo(sharesApi.update)[0]?.body).toEqual({ id: 5, price: 9.91 })
  })
})
