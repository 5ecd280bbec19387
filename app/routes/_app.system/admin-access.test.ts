// The console's twin of server/src/http/admin-access.test.ts: every admin route of the console — the
// /system pages, the menu's admin-only pages and the 403 page, read from the route tree so a page added
// later is walked too — refuses a user who is not an admin (to the workplace with SPEC §8's 403 toast),
// sends a visitor to login with the way back (SPEC §2), and lets an admin through. Through Remix's own
// request handler: a full page load, a client navigation's data request and a form post, each; and each
// route's own loader and action, called alone, refuse too (they do not lean on the /system layout).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { menuForRole, MENU, type MenuItem } from '#contract/menu.ts'
import { readFlash } from '#app/.server/toast.ts'
import { args, get, ORIGIN, post, sessionCookie, settle, statusOf, userFixture } from '../../../tests/support/console.ts'
import { requestHandler, routeModule, routeTree, urlOf, type RouteEntry } from '../../../tests/support/route-tree.ts'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const USER = userFixture({ id: 7, role: 'user' })
const ADMIN = userFixture({ id: 1, uid: 1, user_name: 'admin', role: 'admin' })
const WORKPLACE = '/dashboard/workplace'

const routes = routeTree()
const leaves = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => (i.children?.length ? leaves(i.children) : [i]))
/** The menu's entries that only admins see (the instrument cluster, the /system pages). */
const adminMenuPaths = leaves(MENU)
  .filter((i) => i.roles.length === 1 && i.roles[0] === 'admin')
  .map((i) => i.path)
const admin: { route: RouteEntry; url: string }[] = Object.values(routes)
  .map((route) => ({ route, url: urlOf(routes, route.id) }))
  // SPEC §2/§6: /system and everything under it, the admin-only menu pages, and the 403 page.
  .filter(({ url }) => url === '/system' || url.startsWith('/system/') || adminMenuPaths.includes(url) || url === '/exception/403')
  .sort((a, b) => a.url.localeCompare(b.url))
// Layouts are walked through their pages; a route with no module of its own to answer is skipped.
const pages = admin.filter(({ route }) => !Object.values(routes).some((r) => r.parentId === route.id && !r.index) || route.id === 'routes/_app.system')

let handle: Awaited<ReturnType<typeof requestHandler>>
let userCookie: string
let adminCookie: string
beforeAll(async () => {
  handle = await requestHandler(routes, admin.map((a) => a.route.id))
  userCookie = await sessionCookie('user-token')
  adminCookie = await sessionCookie('admin-token')
})
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, (call) => ({ data: call.headers.authorization === 'Bearer admin-token' ? ADMIN : USER }))
})

/** The toast a response's Set-Cookie carries to the next page. */
async function toastOf(res: Response) {
  const cookie = (res.headers.get('set-cookie') ?? '').split(/,(?=\s*ps_)/).find((c) => c.trim().startsWith('ps_toast='))
  if (!cookie) return null
  return (await readFlash(get('/', cookie.split(';')[0]!.trim()))).flash?.toast ?? null
}
/** Every endpoint of contract/ that only admins may call. */
const ADMIN_ENDPOINTS = new Set(
  Object.values(import.meta.glob<Record<string, unknown>>(['../../../contract/*.ts', '!../../../contract/*.test.ts'], { eager: true }))
    .flatMap((mod) => Object.values(mod))
    .flatMap((group) => (group && typeof group === 'object' ? Object.values(group) : []))
    .filter((e): e is { method: string; path: string; access: string } => Boolean(e && typeof e === 'object' && 'access' in e && 'path' in e && (e as { access: unknown }).access === 'admin'))
    .map((e) => `${e.method} ${e.path}`),
)
const adminCalls = () => stub.calls.map((c) => `${c.method} ${c.path}`).filter((c) => ADMIN_ENDPOINTS.has(c))

/** Remix's answer, following the /system index's forward to its first page (itself guarded). */
async function follow(request: Request): Promise<Response> {
  let res = await handle(request)
  for (let hops = 0; hops < 3 && res.status === 302 && /^\/system\//.test(res.headers.get('location') ?? ''); hops++) {
    res = await handle(new Request(ORIGIN + res.headers.get('location'), { headers: request.headers }))
  }
  return res
}

describe('the admin routes of the console', () => {
  it('are found: the /system pages, the admin-only menu pages and the 403 page, and every route that asks for an admin', () => {
    const urls = admin.map((a) => a.url)
    expect(urls).toEqual(expect.arrayContaining(['/system', '/system/user-manage', '/system/report-manage', '/system/withdrawal-manage', '/system/statistics-report/csv', '/system/user-manage/1/fraud', '/dashboard/instrument-cluster', '/exception/403']))
    expect(pages.length).toBeGreaterThan(15)
    expect(ADMIN_ENDPOINTS.size).toBeGreaterThan(30)
    // Every menu entry a user does not see is walked, and every route file that guards with requireAdmin.
    const userMenu = leaves(menuForRole('user')).map((i) => i.path)
    for (const p of leaves(MENU).map((i) => i.path).filter((p) => !userMenu.includes(p) && Object.values(routes).some((r) => urlOf(routes, r.id) === p))) expect(urls).toContain(p)
    const guarded = Object.values(routes).filter((r) => fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', r.file), 'utf8').includes('requireAdmin('))
    for (const r of guarded) expect(admin.map((a) => a.route.id)).toContain(r.id)
  })

  describe.each(pages.map((p) => [p.url, p] as const))('%s', (url, { route }) => {
    it('a user who is not an admin: sent to the workplace with the 403 toast — page load, data request and form post — and no admin endpoint called', async () => {
      const requests = [
        new Request(ORIGIN + url, { headers: { host: 'console.test', cookie: userCookie } }),
        new Request(`${ORIGIN}${url}.data`, { headers: { host: 'console.test', cookie: userCookie } }),
      ]
      if ((await routeModule(route)).action) requests.push(post(url, { intent: 'ban', id: '1', status: 'approved' }, { cookie: userCookie }))
      for (const request of requests) {
        const res = await follow(request)
        const label = `${request.method} ${new URL(request.url).pathname}`
        if (new URL(request.url).pathname.endsWith('.data')) {
          // A client navigation: single fetch answers the redirect as data (202).
          expect(res.status, label).toBe(202)
          expect(await res.text(), label).toMatch(/\/dashboard\/workplace|\/system\//)
        } else {
          expect(res.status, label).toBe(302)
          expect(res.headers.get('location'), label).toBe(WORKPLACE)
          expect(await toastOf(res), label).toMatchObject({ type: 'error', key: 'pages.forbidden' })
        }
      }
      expect(adminCalls()).toEqual([])
    })

    it("its own loader and action refuse a user too, called alone (not only through the /system layout's)", async () => {
      const mod = await routeModule(route)
      for (const [name, request] of [
        ['loader', get(url, userCookie)],
        ['action', post(url, { intent: 'ban', id: '1' }, { cookie: userCookie })],
      ] as const) {
        const fn = mod[name] as ((a: ReturnType<typeof args>) => unknown) | undefined
        if (!fn) continue
        const res = statusOf(await settle(async () => fn(args(request, { id: '1' }))))
        expect(res.status, `${name}`).toBeGreaterThanOrEqual(300)
        expect(res.status, `${name}`).toBeLessThan(400)
        const location = res.headers.get('location')
        // The /system index only forwards to a guarded page; every other route sends the user away.
        if (location !== WORKPLACE) expect(location, `${name}`).toMatch(/^\/system\//)
      }
      expect(adminCalls()).toEqual([])
    })

    it('a visitor: to login, with the way back', async () => {
      const res = await follow(new Request(ORIGIN + url, { headers: { host: 'console.test' } }))
      expect(res.status).toBe(302)
      // (The /system index forwards to its first page, which asks for the login.)
      expect(res.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirect: url === '/system' ? '/system/user-manage' : url })}`)
      expect(stub.calls).toEqual([])
    })

    it('an admin passes the guard', async () => {
      const res = await handle(new Request(ORIGIN + url, { headers: { host: 'console.test', cookie: adminCookie } }))
      // The page's own answer (its data, or its error with the stub's empty API) — never the refusal.
      expect(res.headers.get('location') ?? '').not.toBe(WORKPLACE)
      expect(await toastOf(res)).toBeNull()
      expect(stub.callsTo(usersApi.userInfo).every((c) => c.headers.authorization === 'Bearer admin-token')).toBe(true)
    })
  })
})
