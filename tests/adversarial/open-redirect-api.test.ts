// Issue 20, Medium, the API's half: the sandbox checkout and the sandbox consent page send the browser
// to a URL that came with the request. Both are signed, so a visitor cannot change them — but should a
// link ever be signed for another place, the redirect still goes only to the console (decision 105).
// Here the sandboxes themselves sign each corpus value; the API must refuse (400, nothing settled) or
// land on the console's origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, buildTestApp, dbFingerprint } from '../../server/test/helpers.ts'
import { HOSTILE_TARGETS } from './redirect-corpus.ts'

const CONSOLE = 'http://localhost:3000'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ config: { webUrl: CONSOLE } })
})
afterAll(() => t.close())

/** Off-site absolute URLs as well as the corpus: the places a signed return URL could name. */
const TARGETS = [...HOSTILE_TARGETS, 'http://evil.example/', `${CONSOLE}.evil.example/`, `http://user@${CONSOLE.slice(7)}/x`, `${CONSOLE}/.//evil.example`]

function wentElsewhere(res: { statusCode: number; headers: Record<string, unknown> }): string | null {
  if (res.statusCode === 400) return null
  if (res.statusCode !== 303) return `answered ${res.statusCode}`
  const location = String(res.headers.location ?? '')
  return new URL(location).origin === CONSOLE ? null : `went to ${location.slice(0, 80)}`
}

describe('the sandbox checkout sends the payer back to the console only', () => {
  it(`refuses, and settles nothing, for a signed return URL elsewhere (${TARGETS.length} values)`, async () => {
    const sandbox = t.app.payments.sandbox!
    const before = await dbFingerprint(t.db)
    const escaped: string[] = []
    for (const returnUrl of TARGETS) {
      const { payUrl } = await sandbox.createPayment({
        orderNo: 'PS20261123000000123456789012',
        amount: 100,
        subject: 'x',
        method: 'Alipay',
        notifyUrl: 'http://127.0.0.1:4000/api/payments/sandbox/notify',
        returnUrl,
        expiresAt: new Date(Date.now() + 60_000),
        clientIp: '127.0.0.1',
      })
      const url = new URL(payUrl!)
      const res = await t.app.inject({ method: 'POST', url: url.pathname, headers: FORM, payload: new URLSearchParams({ ...Object.fromEntries(url.searchParams), action: 'cancel' }).toString() })
      const wrong = wentElsewhere(res)
      if (wrong) escaped.push(`${JSON.stringify(returnUrl.slice(0, 60))}: ${wrong}`)
    }
    expect(escaped).toEqual([])
    expect(await dbFingerprint(t.db)).toEqual(before)
  })
})

describe('the sandbox consent page sends the browser back to the console only', () => {
  it(`refuses a signed redirect_uri elsewhere (${TARGETS.length} values)`, async () => {
    const provider = t.app.oauth.get('qq')!
    const escaped: string[] = []
    for (const redirectUri of TARGETS) {
      const consent = new URL(provider.authorizationUrl({ state: 'state-1', redirectUri }))
      const res = await t.app.inject({ method: 'POST', url: consent.pathname, headers: FORM, payload: new URLSearchParams({ ...Object.fromEntries(consent.searchParams), action: 'deny' }).toString() })
      const wrong = wentElsewhere(res)
      if (wrong) escaped.push(`${JSON.stringify(redirectUri.slice(0, 60))}: ${wrong}`)
    }
    expect(escaped).toEqual([])
  })
})
