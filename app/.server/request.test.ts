import { describe, expect, it, vi } from 'vitest'
import { ORIGIN, post, settle, statusOf } from '../../tests/support/console.ts'
import { crossSiteRefusal, readForm, requireSameOrigin } from './request.ts'

// The helpers load the console's settings: a secret of the tests' own, never ./data's.
vi.hoisted(() => {
  process.env.SESSION_SECRET ||= 'console-tests-session-secret'
})

const raw = (body: BodyInit, headers: Record<string, string>) => new Request(`${ORIGIN}/login`, { method: 'POST', headers: { host: 'console.test', origin: ORIGIN, ...headers }, body })

describe('readForm: a form, or a 400', () => {
  it('reads a urlencoded form and a multipart one', async () => {
    expect((await readForm(post('/login', { username: 'ada' }))).get('username')).toBe('ada')
    const multipart = new FormData()
    multipart.set('username', 'ada')
    expect((await readForm(new Request(`${ORIGIN}/login`, { method: 'POST', headers: { host: 'console.test', origin: ORIGIN }, body: multipart }))).get('username')).toBe('ada')
  })

  it.each([
    ['a JSON body', raw('{"username":"ada"}', { 'content-type': 'application/json' })],
    ['junk as multipart', raw('junk', { 'content-type': 'multipart/form-data; boundary=xx' })],
    ['multipart without a boundary', raw('junk', { 'content-type': 'multipart/form-data' })],
    ['no content type', raw('username=ada', { 'content-type': '' })],
    ['plain text', raw('username=ada', { 'content-type': 'text/plain' })],
  ])('%s is a 400, not a 500', async (_, request) => {
    const res = statusOf(await settle(() => readForm(request)))
    expect(res.status).toBe(400)
    expect(res.data).toEqual({ msg: 'errors.badRequest' })
  })
})

describe('requireSameOrigin: the origin check of every action', () => {
  const from = (headers: Record<string, string>) => new Request(`${ORIGIN}/logout`, { method: 'POST', headers })

  it.each([
    ['the same origin', { origin: ORIGIN, host: 'console.test' }],
    ['no Origin (not a browser form)', { host: 'console.test' }],
    ['the host a proxy was addressed by', { origin: 'https://pay.example', host: '127.0.0.1:3000', 'x-forwarded-host': 'pay.example' }],
  ])('passes %s', (_, headers) => {
    expect(() => requireSameOrigin(from(headers))).not.toThrow()
  })

  it.each([
    ['another site', { origin: 'http://evil.example', host: 'console.test' }],
    ['an opaque origin (null)', { origin: 'null', host: 'console.test' }],
    ['a cross-site fetch without Origin', { 'sec-fetch-site': 'cross-site', host: 'console.test' }],
    ['another port', { origin: 'http://console.test:8080', host: 'console.test' }],
  ])('refuses %s (403)', async (_, headers) => {
    expect(statusOf(await settle(() => requireSameOrigin(from(headers)))).status).toBe(403)
  })
})

describe('readForm: the intents of an action', () => {
  const form = (fields: string) => raw(fields, { 'content-type': 'application/x-www-form-urlencoded' })

  it('takes a form that names none of them (the default) or exactly one', async () => {
    expect((await readForm(form('a=1'), ['save'])).get('a')).toBe('1')
    expect((await readForm(form('intent=save'), ['save', 'close'])).get('intent')).toBe('save')
    expect((await readForm(form('intent=buy-12'), [/^buy-\d+$/])).get('intent')).toBe('buy-12')
  })

  it.each([
    ['an intent the action does not have', 'intent=delete', ['save']],
    ['an intent on an action without any', 'intent=save', []],
    ['two intents', 'intent=save&intent=close', ['save', 'close']],
    ['an empty intent', 'intent=', ['save']],
    ['a pattern not matched whole', 'intent=buy-12x', [/^buy-\d+$/]],
  ])('%s is a 400', async (_, body, intents) => {
    expect(statusOf(await settle(() => readForm(form(body), intents as string[]))).status).toBe(400)
  })
})

describe('crossSiteRefusal: what the web server answers before Remix (Remix itself would answer a bare 500)', () => {
  const request = (method: string, headers: Record<string, string>) => new Request(`${ORIGIN}/login`, { method, headers: { host: 'console.test', ...headers } })

  it('lets reads and same-site writes through', async () => {
    expect(await crossSiteRefusal(request('GET', { origin: 'http://evil.example' }))).toBeNull()
    expect(await crossSiteRefusal(request('POST', { origin: ORIGIN }))).toBeNull()
    expect(await crossSiteRefusal(request('POST', {}))).toBeNull()
  })

  it('answers a write from another site 403, in the visitor\'s language', async () => {
    const refused = await crossSiteRefusal(request('POST', { origin: 'http://evil.example' }))
    expect(refused?.status).toBe(403)
    expect(await refused!.text()).toContain('该请求并非来自本站')
    expect((await crossSiteRefusal(request('DELETE', { 'sec-fetch-site': 'cross-site' })))?.status).toBe(403)
  })
})
