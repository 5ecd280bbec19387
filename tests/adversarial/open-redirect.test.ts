// Issue 20, Medium: "the open redirect is still open through dot segments". Every value of the corpus
// goes through every console route that takes a redirect target from the request; whatever comes back
// must be a refusal (400) or a redirect that a browser, resolving its Location against the page, keeps
// on this site.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { oauthApi } from '#contract/oauth.ts'
import { authApi } from '#contract/auth.ts'
import { ORIGIN, args, get, post, sessionCookie, settle, statusOf, userFixture } from '../support/console.ts'
import { action as loginAction } from '#app/routes/login/route.tsx'
import { action as localeAction } from '#app/routes/locale/route.tsx'
import { action as settingsAction } from '#app/routes/settings/route.tsx'
import { action as bindQQAction } from '#app/routes/_app.bind.qq/route.tsx'
import { loader as redirectLoader } from '#app/routes/_app.redirect.$/route.tsx'
import { redirectTarget } from '#contract/redirects.ts'
import { HOSTILE_TARGETS, SITE_TARGETS } from './redirect-corpus.ts'

const stub = await vi.hoisted(async () => (await import('../support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(authApi.login, { data: { token: 'fresh-token' } })
  stub.on(usersApi.userInfo, { data: userFixture() })
  stub.on(oauthApi.unbind, { data: null })
})

/**
 * Where a browser on `page` goes with this answer (null: refused with a 400), or what is wrong with it.
 * The Location must be a path of this site in its canonical, printable form — nothing a browser could
 * read another way — and must resolve to this origin.
 */
function destination(answer: unknown, page: string): { went: URL | null; wrong?: string } {
  const { status, headers } = statusOf(answer)
  if (status === 400) return { went: null }
  if (status < 300 || status >= 400) return { went: null, wrong: `answered ${status}` }
  const location = headers.get('location') ?? ''
  const went = new URL(location, page)
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(location)) return { went, wrong: `Location ${location.slice(0, 80)}` }
  if (went.origin !== ORIGIN) return { went, wrong: `went to ${went.href.slice(0, 80)}` }
  return { went }
}

type Route = { name: string; page: string; run: (to: string) => Promise<unknown> }

const session = await sessionCookie('tok-1')
const ROUTES: Route[] = [
  {
    name: 'POST /login?redirect=',
    page: `${ORIGIN}/login`,
    run: (to) => settle(() => loginAction(args(post(`/login?${new URLSearchParams({ redirect: to })}`, { username: 'ada', password: 'Secret@1', intent: 'login' })))),
  },
  { name: 'POST /locale redirectTo', page: `${ORIGIN}/dashboard/workplace`, run: (to) => settle(() => localeAction(args(post('/locale', { locale: 'en-US', redirectTo: to })))) },
  {
    name: 'POST /settings redirectTo',
    page: `${ORIGIN}/dashboard/workplace`,
    run: (to) => settle(() => settingsAction(args(post('/settings', { redirectTo: to, theme: 'dark' }, { cookie: session })))),
  },
  {
    name: 'POST /bind/qq from',
    page: `${ORIGIN}/bind/qq`,
    run: (to) => settle(() => bindQQAction(args(post('/bind/qq', { intent: 'unbind', from: to }, { cookie: session })))),
  },
  {
    // Remix hands the loader the decoded rest of the path: any text reaches it (`%2e`, `%252e`, `%09`…).
    name: 'GET /redirect/*',
    page: `${ORIGIN}/redirect/x`,
    run: (to) => settle(() => redirectLoader(args(get('/redirect/x', session), { '*': to.startsWith('/') ? to.slice(1) : to }))),
  },
]

describe.each(ROUTES)('$name never sends the browser off the site', ({ page, run }) => {
  it(`refuses or lands on this site for each of the ${HOSTILE_TARGETS.length} hostile values`, async () => {
    expect(HOSTILE_TARGETS.length).toBeGreaterThanOrEqual(100)
    const escaped: string[] = []
    for (const to of HOSTILE_TARGETS) {
      const { wrong } = destination(await run(to), page)
      if (wrong) escaped.push(`${JSON.stringify(to.slice(0, 60))}: ${wrong}`)
    }
    expect(escaped).toEqual([])
  })

  it('still follows the paths of this site', async () => {
    for (const [to, expected] of SITE_TARGETS) {
      const { went, wrong } = destination(await run(to), page)
      expect(wrong, to).toBeUndefined()
      expect(went && went.pathname + went.search + went.hash, to).toBe(expected)
    }
  })
})

describe('redirectTarget, the one check (decision 105)', () => {
  const CONSOLE = 'http://localhost:3000'

  it('answers each hostile value with a refusal or a path that stays on the site, as a path and as the API uses it', () => {
    const escaped: string[] = []
    for (const to of HOSTILE_TARGETS) {
      const path = redirectTarget(to)
      if (path.ok && (!/^\/(?![/\\])[\x21-\x7e]*$/.test(path.to) || new URL(path.to, `${CONSOLE}/login`).origin !== CONSOLE)) escaped.push(`${JSON.stringify(to.slice(0, 60))} → ${path.to}`)
      const absolute = redirectTarget(to, { origin: CONSOLE })
      if (absolute.ok && new URL(absolute.to).origin !== CONSOLE) escaped.push(`${JSON.stringify(to.slice(0, 60))} → ${absolute.to}`)
    }
    expect(escaped).toEqual([])
  })

  it('control characters are a forged request; the rest of what it refuses falls back', () => {
    expect(redirectTarget('/\t/evil.example')).toEqual({ ok: false, reason: 'forged' })
    expect(redirectTarget('/.//evil.example')).toEqual({ ok: false, reason: 'elsewhere' })
    expect(redirectTarget(null)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(redirectTarget(42)).toEqual({ ok: false, reason: 'elsewhere' })
  })

  it('with an origin (the API sending the browser back to the console): absolute URLs of exactly that origin', () => {
    expect(redirectTarget(`${CONSOLE}/share/AbCd2345?order=PS1`, { origin: CONSOLE })).toEqual({ ok: true, to: `${CONSOLE}/share/AbCd2345?order=PS1` })
    expect(redirectTarget('/login/qq', { origin: `${CONSOLE}/` })).toEqual({ ok: true, to: `${CONSOLE}/login/qq` })
    for (const other of [
      'https://localhost:3000/x',
      'http://localhost:3001/x',
      'http://localhost:3000.evil.example/x',
      'http://localhost:3000@evil.example/x',
      'http://user@localhost:3000/x',
      `${CONSOLE}/.//evil.example`,
      `${CONSOLE}//evil.example`,
      'javascript:alert(1)//localhost:3000',
    ]) {
      expect(redirectTarget(other, { origin: CONSOLE }), other).toEqual({ ok: false, reason: 'elsewhere' })
    }
    // Without an origin an absolute URL is never taken, not even one on the site.
    expect(redirectTarget(`${CONSOLE}/x`)).toEqual({ ok: false, reason: 'elsewhere' })
  })
})
