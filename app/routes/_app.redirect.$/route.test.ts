import { afterAll, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { args, get, sessionCookie, settle, statusOf } from '../../../tests/support/console.ts'
import { loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
stub.on(usersApi.userInfo, { data: { id: 1, uid: 1, user_name: 'ada', email: null, phone: null, role: 'user', status: 'active', profile: '', is_banned: 0, last_login_iP: null, last_login_time: null, terms_agreed_at: null, alipayRealName: null, alipayAccount: null, created_at: '2026-11-01T00:00:00.000Z' } })

// `params['*']` is the decoded rest of the path: /redirect/%09/evil.example gives "\t/evil.example".
const go = async (splat: string, search = '') => settle(async () => loader(args(get(`/redirect/x${search}`, await sessionCookie('tok')), { '*': splat })))

describe('/redirect/*', () => {
  it('reloads a page of this site, with its query', async () => {
    expect(statusOf(await go('user/setting', '?from=menu')).headers.get('location')).toBe('/user/setting?from=menu')
  })

  it.each(['/evil.example', '\\evil.example'])('never leaves the site: %j', async (splat) => {
    expect(statusOf(await go(splat)).headers.get('location')).toBe('/dashboard/workplace')
  })

  it.each(['\t/evil.example', '\r\n/evil.example'])('%j (control characters) is a 400', async (splat) => {
    expect(statusOf(await go(splat)).status).toBe(400)
  })
})
