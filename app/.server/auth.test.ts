import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { args, get, sessionCookie, settle, statusOf, userFixture } from '../../tests/support/console.ts'
import { optionalUser, requireAdmin, requireUser, safeRedirect } from './auth.ts'

const stub = await vi.hoisted(async () => (await import('../../tests/support/api-stub.ts')).startApiStub())

const USER = userFixture({ role: 'admin' })

afterAll(() => stub.close())
beforeEach(async () => {
  await stub.up()
  stub.reset()
})

describe('safeRedirect: only paths of this site', () => {
  it.each([
    ['/user/setting?from=guard', '/user/setting?from=guard'],
    ['/share/AbCd2345?order=PS1#top', '/share/AbCd2345?order=PS1#top'],
    // Percent-encoded characters stay encoded: a path, not a host.
    ['/%09/evil.example', '/%09/evil.example'],
  ])('%j is followed', (to, expected) => {
    expect(safeRedirect(to)).toBe(expected)
  })

  it.each(['//evil.example/steal', '/\\evil.example', '\\/evil.example', 'https://evil.example/', 'evil.example', '/ /evil.example', '/\u3000/evil.example', '/\u2028x', ''])(
    '%j falls back to the workplace',
    (to) => {
      expect(safeRedirect(to)).toBe('/dashboard/workplace')
    },
  )

  // Browsers drop TAB/CR/LF inside URLs: `/\t/evil.example` is `//evil.example`, off the site.
  it.each(['/\t/evil.example', '/\r\n/evil.example', '/\n/evil.example', '/x\r\nSet-Cookie: a=b', '/\u0000x', '/\u0085x', '/\u007f'])(
    '%j (control characters) is a 400',
    (to) => {
      const thrown = (() => {
        try {
          safeRedirect(to)
        } catch (e) {
          return e
        }
      })()
      expect(statusOf(thrown).status).toBe(400)
    },
  )
})

describe('requireUser: the current user, once per request', () => {
  it('calls /api/users/userInfo once however many loaders of one request ask (they share the load context)', async () => {
    stub.on(usersApi.userInfo, { data: USER })
    const cookie = await sessionCookie('tok-1')
    const context = {}
    // A navigation to an admin page: the _app layout, the /system layout and the page itself.
    const [a, b, c] = await Promise.all([
      requireUser(args(get('/system/user-manage', cookie), {}, context)),
      requireAdmin(args(get('/system/user-manage', cookie), {}, context)),
      requireAdmin(args(get('/system/user-manage', cookie), {}, context)),
    ])
    expect([a.user.user_name, b.user.user_name, c.user.user_name]).toEqual(['ada', 'ada', 'ada'])
    expect(stub.count(usersApi.userInfo)).toBe(1)
    expect(stub.calls[0]!.headers.authorization).toBe('Bearer tok-1')

    // Another request (another context) asks again.
    await requireUser(args(get('/dashboard/workplace', cookie), {}, {}))
    expect(stub.count(usersApi.userInfo)).toBe(2)
  })

  it('without a session goes to login, coming back to the page', async () => {
    const res = statusOf(await settle(() => requireUser(args(get('/user/setting?from=guard')))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting%3Ffrom%3Dguard')
    expect(stub.count(usersApi.userInfo)).toBe(0)
  })

  it('a refused token logs out and goes to login', async () => {
    stub.on(usersApi.userInfo, { code: 401, msg: 'auth.unauthorized' })
    const res = statusOf(await settle(async () => requireUser(args(get('/dashboard/workplace', await sessionCookie('dead'))))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fdashboard%2Fworkplace')
    expect(res.headers.get('set-cookie')).toMatch(/ps_session=;.*Expires=Thu, 01 Jan 1970/)
  })

  it.each([
    ['the API is down (connection refused)', async () => stub.down()],
    ['the API answers 500', async () => stub.on(usersApi.userInfo, { code: 500, msg: 'errors.internal' })],
    ['a proxy answers 502 for it', async () => stub.on(usersApi.userInfo, { raw: '<h1>Bad Gateway</h1>', status: 502 })],
  ])('%s: 503 "temporarily unavailable", the session kept', async (_, breakIt) => {
    const cookie = await sessionCookie('tok-2')
    await breakIt()
    const res = statusOf(await settle(() => requireUser(args(get('/dashboard/workplace', cookie)))))
    expect(res.status).toBe(503)
    expect(res.data).toEqual({ msg: 'errors.serviceUnavailable', unavailable: true })
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('optionalUser: a visitor view when the session cannot be loaded, never an error', async () => {
    const cookie = await sessionCookie('tok-3')
    await stub.down()
    expect(await optionalUser(args(get('/agreement/exemptionagree', cookie)))).toBeNull()
    expect(await optionalUser(args(get('/agreement/exemptionagree')))).toBeNull()
  })
})

describe('requireUser: a session that ends', () => {
  async function thrown(p: Promise<unknown>): Promise<Response> {
    const r = await p.then(
      () => null,
      (e: unknown) => e,
    )
    expect(r).toBeInstanceOf(Response)
    return r as Response
  }

  it('a banned account is sent to login with the reason (issue 13), without the "could not load" toast', async () => {
    stub.on(usersApi.userInfo, { code: 401, msg: 'auth.banned', data: null })
    const res = await thrown(requireUser(args(get('/user/setting?x=1', await sessionCookie('tok-b')))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting%3Fx%3D1&reason=banned')
    const cookies = res.headers.getSetCookie()
    expect(cookies.some((c) => c.startsWith('ps_session=;'))).toBe(true)
    expect(cookies.some((c) => c.startsWith('ps_toast='))).toBe(false)
  })

  it('any other dead token goes to login without a reason', async () => {
    stub.on(usersApi.userInfo, { code: 401, msg: 'auth.unauthorized', data: null })
    const res = await thrown(requireUser(args(get('/user/setting', await sessionCookie('tok-c')))))
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting')
  })
})
