// Issue 23: a 500–504 answer to the profile form. SPEC §8's dialog offers to stay on the page, so the page
// keeps what was typed — with JavaScript (a single-fetch post) and without (a page post) — and opens the
// dialog there: from the form's messages after a page post, from the root's revalidation after a fetch.
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { sessionCookie, userFixture } from '../../../tests/support/console.ts'
import { CONFIRM_LOGOUT_IN_FORM } from '#app/components/feedback/flash.tsx'
import * as root from '../../root.tsx'
import * as profile from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())

type Rendered = { actionData: Record<string, unknown> | null }
let rendered: Rendered | null = null
const build = {
  mode: 'production',
  entry: {
    module: {
      default: (_request: Request, status: number, headers: Headers, remixContext: { staticHandlerContext: Rendered }) => {
        rendered = remixContext.staticHandlerContext
        return new Response('<!doctype html>', { status, headers })
      },
    },
  },
  routes: {
    root: { id: 'root', path: '', module: root },
    profile: { id: 'profile', parentId: 'root', path: 'user/setting/profile', module: profile },
  },
  assets: { entry: { imports: [], module: '' }, routes: {}, url: '', version: 'test' },
  publicPath: '/',
  assetsBuildDirectory: '',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
  isSpaMode: false,
} as unknown as ServerBuild
const handle = createRequestHandler(build)

const typed = { user_name: 'ada_lovelace', profile: 'Typed before the server failed' }
const postProfile = async (path: string, accept: string) =>
  handle(
    new Request(`http://console.test${path}`, {
      method: 'POST',
      headers: {
        host: 'console.test',
        origin: 'http://console.test',
        accept,
        cookie: await sessionCookie('tok'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(typed).toString(),
    }),
  )

afterAll(() => stub.close())
beforeEach(() => {
  rendered = null
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture({ user_name: 'ada' }) })
  stub.on(usersApi.update, { code: 500, msg: 'errors.internal' })
})

describe('the profile form after a 500', () => {
  it('without JavaScript: the page comes back with what was typed, the msg and the dialog — no redirect', async () => {
    const res = await postProfile('/user/setting/profile', 'text/html,application/xhtml+xml')
    expect(res.status).toBe(500)
    expect(res.headers.get('location')).toBeNull()
    expect(rendered!.actionData?.profile).toMatchObject({ result: { initialValue: typed, error: { '': ['errors.internal', CONFIRM_LOGOUT_IN_FORM] } } })
    // Nothing left behind to open the dialog again on the next page.
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/ps_toast=/)
  })

  it('with JavaScript: the answer keeps what was typed and leaves the dialog for the revalidation', async () => {
    const res = await postProfile('/user/setting/profile.data', '*/*')
    expect(res.status).toBe(500)
    const body = await res.text()
    expect(body).toContain('Typed before the server failed')
    expect(res.headers.get('set-cookie')).toMatch(/ps_toast=/)
    expect(root.shouldRevalidate({ actionStatus: 500, defaultShouldRevalidate: false } as Parameters<typeof root.shouldRevalidate>[0])).toBe(true)
  })
})
