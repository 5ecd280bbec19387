import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { authApi } from '#contract/auth.ts'
import type { StubAnswer } from '../../../tests/support/api-stub.ts'
import { ORIGIN, args, post, settle, statusOf } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(authApi.login, { data: { token: 'fresh-token' } })
  stub.on(authApi.logout, { data: null })
})

const login = (redirect: string | null, headers: Record<string, string> = {}) =>
  post(`/login${redirect === null ? '' : `?${new URLSearchParams({ redirect })}`}`, { username: 'ada', password: 'Secret@1', intent: 'login' }, { headers })

describe('login action: where it goes afterwards', () => {
  it('back to the page that sent the user to login', async () => {
    const res = statusOf(await action(args(login('/user/setting?from=guard'))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/user/setting?from=guard')
    expect(res.headers.get('set-cookie')).toMatch(/ps_session=/)
  })

  it.each(['//evil.example/steal', '/\\evil.example', 'https://evil.example/'])('never off the site: %j lands on the workplace', async (to) => {
    const res = statusOf(await action(args(login(to))))
    expect(res.headers.get('location')).toBe('/dashboard/workplace')
  })

  // `/login?redirect=%2F%09%2Fevil.example`: browsers drop the TAB and go to //evil.example.
  it.each(['/\t/evil.example', '/\r\n/evil.example', '/x\r\nSet-Cookie: a=b'])('%j is refused (400) before the API issues a token', async (to) => {
    const res = statusOf(await settle(() => action(args(login(to)))))
    expect(res.status).toBe(400)
    expect(stub.count(authApi.login)).toBe(0)
  })
})

describe('login action: bodies that are not the form', () => {
  it.each([
    ['JSON', '{"username":"ada","password":"Secret@1"}', 'application/json'],
    ['junk multipart', 'junk', 'multipart/form-data; boundary=xx'],
  ])('%s is a 400 and no login', async (_, body, type) => {
    const request = new Request(`${ORIGIN}/login`, { method: 'POST', headers: { host: 'console.test', origin: ORIGIN, 'content-type': type }, body })
    expect(statusOf(await settle(() => action(args(request)))).status).toBe(400)
    expect(stub.count(authApi.login)).toBe(0)
  })
})

describe('login action: what a refused login says', () => {
  const refusal = async (answer: StubAnswer<typeof authApi.login>, lng = 'en-US') => {
    stub.on(authApi.login, answer)
    const cookie = `ps_lng=${encodeURIComponent(Buffer.from(JSON.stringify(lng)).toString('base64'))}`
    const res = statusOf(await action(args(login(null, { cookie }))))
    expect(res.status).toBe(400)
    return (res.data as { result: { error: Record<string, string[]> } }).result.error['']
  }

  it('a wrong password: the reason alone, no "refresh and try again" above it', async () => {
    expect(await refusal({ code: 401, msg: 'auth.badCredentials' })).toEqual(['auth.badCredentials'])
  })

  it('a locked account: when the lock ends (decision 040), in the page language', async () => {
    expect(await refusal({ code: 429, msg: 'auth.loginLocked', data: { retryAfter: 754 } })).toEqual(['Too many failed logins. Try again in 13 min.'])
    expect(await refusal({ code: 429, msg: 'auth.loginLocked', data: { retryAfter: 30 } }, 'zh-CN')).toEqual(['登录失败次数过多，请 1 分钟后再试。'])
  })

  it('a failure with no reason of its own: SPEC §5 "Login error, refresh and try again"', async () => {
    expect(await refusal({ code: 500, msg: 'errors.internal' })).toEqual(['auth.loginError'])
  })
})
