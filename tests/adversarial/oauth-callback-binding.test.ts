// Issue 20, Low: "POST /api/oauth/callback accepts a code + state without the browser binding cookie".
// The state and the code travel in URLs (the provider's redirect, the address bar, logs, a Referer); a
// third party who copies them and calls the API itself must not be logged in as the victim's QQ / WeChat
// identity. Only the browser that started the round trip holds the binding secret (decision 093).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, buildTestApp, dbFingerprint, freshIp } from '../../server/test/helpers.ts'

const CONSOLE = 'http://localhost:3000'
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ config: { oauth: { sandbox: true, callbackBaseUrl: CONSOLE } } })
})
afterAll(() => t.close())

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, remoteAddress: freshIp() })

/** The victim's browser starts a round trip and consents; what comes back in its address bar, and its binding. */
async function consentedRoundTrip() {
  const started = await post('/api/oauth/authorize', { provider: 'qq', purpose: 'login' })
  expect(started.statusCode, started.body).toBe(200)
  const { url, binding } = started.json().data as { url: string; binding?: string }
  const consent = new URL(url)
  const allowed = await post(consent.pathname, { ...Object.fromEntries(consent.searchParams), action: 'allow', identity: 'custom', name: 'Victim' })
  expect(allowed.statusCode).toBe(303)
  const back = new URL(allowed.headers.location!)
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, binding }
}

describe('the OAuth callback is bound to the browser that started it', () => {
  it('a copied code and state, without the binding or with another one, log nobody in and spend nothing', async () => {
    const victim = await consentedRoundTrip()
    const other = await consentedRoundTrip()
    const before = await dbFingerprint(t.db)
    for (const body of [
      { provider: 'qq', code: victim.code, state: victim.state },
      { provider: 'qq', code: victim.code, state: victim.state, binding: '' },
      { provider: 'qq', code: victim.code, state: victim.state, binding: 'x'.repeat(43) },
      { provider: 'qq', code: victim.code, state: victim.state, binding: other.binding },
      // The state itself is no binding (it is derived from it, not the other way round).
      { provider: 'qq', code: victim.code, state: victim.state, binding: victim.state },
    ]) {
      const res = await post('/api/oauth/callback', body)
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
      expect(res.statusCode).toBeLessThan(500)
      expect(res.json().data?.ticket ?? res.json().data?.token).toBeUndefined()
    }
    expect(await dbFingerprint(t.db)).toEqual(before)
    // The victim's own browser, with its binding, still completes its round trip.
    const own = await post('/api/oauth/callback', { provider: 'qq', ...victim })
    expect(own.statusCode, own.body).toBe(200)
    expect(own.json().data).toMatchObject({ kind: 'unknown', nickname: 'Victim' })
  })
})
