// Issue 23: with no SUPPORT_URL a logged-in /support was a bare "Not Found"; it leads to "Write to support".
import { afterAll, beforeEach, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { args, get, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { loader } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture() })
})

it('without SUPPORT_URL, /support goes to My messages, where "Write to support" is', async () => {
  const res = statusOf(await settle(async () => loader(args(get('/support', await sessionCookie('tok'))))))
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe('/user/my-message')
})
