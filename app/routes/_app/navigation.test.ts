// One navigation to an admin page runs three loaders that need the user — the _app layout, the /system
// layout and the page — and they are served by one user-info call of the API. Checked through Remix's
// own request handler (the one web-server.mjs serves), with the API stubbed.
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { sessionCookie, userFixture } from '../../../tests/support/console.ts'
import * as root from '../../root.tsx'
import * as userManage from '../_app.system.user-manage/route.tsx'
import * as system from '../_app.system/route.tsx'
import * as app from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())

const ADMIN = userFixture({ id: 1, uid: 1, user_name: 'admin', email: null, role: 'admin' })

/** The routes of /system/user-manage as the flat-routes convention lays them out (app/routes/<id>/route.tsx). */
const build = {
  mode: 'production',
  entry: { module: { default: (_request: Request, status: number, headers: Headers) => new Response('<!doctype html>', { status, headers }) } },
  routes: {
    root: { id: 'root', path: '', module: root },
    'routes/_app': { id: 'routes/_app', parentId: 'root', module: app },
    'routes/_app.system': { id: 'routes/_app.system', parentId: 'routes/_app', path: 'system', module: system },
    'routes/_app.system.user-manage': { id: 'routes/_app.system.user-manage', parentId: 'routes/_app.system', path: 'user-manage', module: userManage },
  },
  assets: { entry: { imports: [], module: '' }, routes: {}, url: '', version: 'test' },
  publicPath: '/',
  assetsBuildDirectory: '',
  future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_routeConfig: true },
  isSpaMode: false,
} as unknown as ServerBuild
const handle = createRequestHandler(build)

afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: ADMIN })
  stub.on(usersApi.list, { data: { list: [ADMIN], total: 1, pageNum: 1, pageSize: 20 } })
})

describe('one navigation to an admin page', () => {
  it('a client-side navigation (one single-fetch data request) loads the user once', async () => {
    const res = await handle(new Request('http://console.test/system/user-manage.data', { headers: { cookie: await sessionCookie('tok') } }))
    expect(res.status).toBe(200)
    expect(stub.count(usersApi.list)).toBe(1)
    expect(stub.count(usersApi.userInfo)).toBe(1)
  })

  it('a full page load loads the user once', async () => {
    const res = await handle(new Request('http://console.test/system/user-manage', { headers: { cookie: await sessionCookie('tok') } }))
    expect(res.status).toBe(200)
    expect(stub.count(usersApi.list)).toBe(1)
    expect(stub.count(usersApi.userInfo)).toBe(1)
  })

  it('a post without JavaScript: the action loads the user, the page loaders after it share one more call', async () => {
    stub.on(usersApi.adminUpdate, { code: 409, msg: 'errors.conflict' })
    const request = new Request('http://console.test/system/user-manage', {
      method: 'POST',
      headers: { host: 'console.test', origin: 'http://console.test', cookie: await sessionCookie('tok'), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'ban', id: '2', is_banned: '1' }).toString(),
    })
    const res = await handle(request)
    expect(res.status).toBe(400)
    expect(stub.count(usersApi.adminUpdate)).toBe(1)
    // The action may change the user; the loaders that render the page after it must not see an older copy.
    expect(stub.count(usersApi.userInfo)).toBe(2)
  })

  it('two requests load it twice (nothing is kept between requests)', async () => {
    const cookie = await sessionCookie('tok')
    await handle(new Request('http://console.test/system/user-manage.data', { headers: { cookie } }))
    await handle(new Request('http://console.test/system/user-manage.data', { headers: { cookie } }))
    expect(stub.count(usersApi.userInfo)).toBe(2)
  })
})
