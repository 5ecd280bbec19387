import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Auth from './auth.ts'

// A stand-in for the API's user-info call: each test says what it answers.
let answer: { status: number; body: unknown } = { status: 200, body: {} }
const api = http.createServer((_req, res) => {
  res.writeHead(answer.status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(answer.body))
})
let auth: typeof Auth

beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  process.env.API_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
  process.env.SESSION_SECRET = 'unit-test-secret'
  auth = await import('./auth.ts')
})
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())))

/** A request to a private page carrying a session with a token. */
async function loggedIn(path: string) {
  const setCookie = await auth.commitToken(new Request('http://console.test/login'), 'token-1')
  return new Request(`http://console.test${path}`, { headers: { cookie: setCookie.split(';')[0]! } })
}

async function thrownRedirect(p: Promise<unknown>): Promise<Response> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(r).toBeInstanceOf(Response)
  return r as Response
}

describe('requireUser (SPEC §2 guard)', () => {
  it('a banned account whose session ends is sent to login with the reason (issue 13)', async () => {
    answer = { status: 401, body: { code: 401, msg: 'auth.banned', data: null } }
    const res = await thrownRedirect(auth.requireUser(await loggedIn('/user/setting?x=1')))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting%3Fx%3D1&reason=banned')
    // The session is cleared, and no "could not load" toast is added to the banned notice.
    const cookies = res.headers.getSetCookie()
    expect(cookies.some((c) => c.startsWith('ps_session=;'))).toBe(true)
    expect(cookies.some((c) => c.startsWith('ps_toast='))).toBe(false)
  })

  it('any other dead token goes to login without a reason', async () => {
    answer = { status: 401, body: { code: 401, msg: 'auth.unauthorized', data: null } }
    const res = await thrownRedirect(auth.requireUser(await loggedIn('/user/setting')))
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting')
  })

  it('a failed user-info call logs out with the SPEC §8 notice', async () => {
    answer = { status: 500, body: { code: 500, msg: 'errors.internal', data: null } }
    const res = await thrownRedirect(auth.requireUser(await loggedIn('/user/setting')))
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fuser%2Fsetting')
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ps_toast='))).toBe(true)
  })

  it('a live session passes with its user', async () => {
    answer = { status: 200, body: { code: 200, msg: 'ok', data: { id: 7, user_name: 'u7', role: 'user' } } }
    const { user, token } = await auth.requireUser(await loggedIn('/user/setting'))
    expect(user.user_name).toBe('u7')
    expect(token).toBe('token-1')
  })
})
