import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { authApi } from '#contract/auth.ts'
import { args, post, sessionCookie, settle, statusOf } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(authApi.logout, { data: null })
})

describe('POST /logout', () => {
  it('revokes the token and clears the session', async () => {
    const res = statusOf(await action(args(post('/logout', {}, { cookie: await sessionCookie('tok') }))))
    expect(res.headers.get('location')).toBe('/login')
    expect(res.headers.get('set-cookie')).toMatch(/^ps_session=;/)
    expect(stub.callsTo(authApi.logout)[0]?.headers.authorization).toBe('Bearer tok')
  })

  it('refuses a post from another site (403): a link elsewhere cannot log the user out', async () => {
    const request = post('/logout', {}, { cookie: await sessionCookie('tok'), headers: { origin: 'http://evil.example' } })
    const res = statusOf(await settle(() => action(args(request))))
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(stub.count(authApi.logout)).toBe(0)
  })
})
