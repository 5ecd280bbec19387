import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, type TestApp } from '../../test/helpers.ts'

type Route = { method: 'GET' | 'POST'; url: string; admin: boolean }

/**
 * Every admin endpoint the API registers — read from its own OpenAPI document, where the router tags
 * each endpoint of an admin scope `admin` — so an endpoint another area adds later is walked too.
 */
async function registeredRoutes(t: TestApp): Promise<Route[]> {
  const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { tags?: string[] }>> }
  return Object.entries(doc.paths).flatMap(([url, ops]) =>
    Object.entries(ops)
      .filter(([m]) => m === 'get' || m === 'post')
      .map(([m, op]) => ({ method: m.toUpperCase() as Route['method'], url, admin: Boolean(op.tags?.includes('admin')) })),
  )
}

describe('admin endpoints', () => {
  let t: TestApp
  let user: string
  let admin: string
  let routes: Route[]

  beforeAll(async () => {
    t = await buildTestApp({ config: { seedDemo: false } })
    const u = await createUser(t.db)
    user = await t.login(u.userName, u.password)
    admin = await t.login('admin', ADMIN_PASSWORD)
    routes = await registeredRoutes(t)
  })
  afterAll(() => t.close())

  it('are found: every /admin/ path is registered as admin, and there are many', () => {
    const admins = routes.filter((r) => r.admin)
    expect(admins.length).toBeGreaterThan(15)
    expect(admins.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/reports/admin/handle', '/api/appeals/admin/handle', '/api/shares/admin/update', '/api/audit/admin/list']))
    // An admin-looking path outside the admin scope would escape this walk: there is none.
    expect(routes.filter((r) => !r.admin && r.url.includes('/admin/'))).toEqual([])
  })

  it("answer 403 to a plain user's token and 401 without one, whatever the body or query, changing nothing", async () => {
    for (const r of routes.filter((x) => x.admin)) {
      for (const [headers, status] of [
        [bearer(user), 403],
        [{}, 401],
        [bearer('not-a-token'), 401],
      ] as const) {
        for (const payload of r.method === 'POST' ? [{}, { id: 1, action: 'ban', status: 'violation' }] : [undefined]) {
          const res = await t.app.inject({ method: r.method, url: r.method === 'GET' ? `${r.url}?pageNum=abc` : r.url, headers, payload })
          expect(res.statusCode, `${r.method} ${r.url} ${JSON.stringify(headers)} ${res.body.slice(0, 120)}`).toBe(status)
          expect(res.json().code).toBe(status)
        }
      }
    }
  })

  it('and an admin passes the guard (a 2xx, or the endpoint’s own 4xx for a bare request — never 401/403)', async () => {
    for (const r of routes.filter((x) => x.admin)) {
      const res = await t.app.inject({ method: r.method, url: r.url, headers: bearer(admin), payload: r.method === 'POST' ? {} : undefined })
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(res.statusCode)
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500)
    }
  })
})
