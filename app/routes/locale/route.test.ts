import { afterAll, describe, expect, it, vi } from 'vitest'
import { args, post, settle, statusOf } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const choose = (redirectTo: string, headers: Record<string, string> = {}) => post('/locale', { locale: 'en-US', redirectTo }, { headers })

describe('POST /locale', () => {
  it('stores the choice and goes back to the page', async () => {
    const res = statusOf(await action(args(choose('/share/AbCd2345?order=PS1'))))
    expect(res.headers.get('location')).toBe('/share/AbCd2345?order=PS1')
    expect(res.headers.get('set-cookie')).toMatch(/^ps_lng=/)
  })

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example'])('never leaves the site: %j', async (to) => {
    expect(statusOf(await action(args(choose(to)))).headers.get('location')).toBe('/login')
  })

  it.each(['/\t/evil.example', '/\r\nSet-Cookie: a=b'])('%j (control characters) is a 400', async (to) => {
    expect(statusOf(await settle(() => action(args(choose(to))))).status).toBe(400)
  })

  it('refuses a post from another site (403), like Remix does for page actions', async () => {
    const res = statusOf(await settle(() => action(args(choose('/', { origin: 'http://evil.example' })))))
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
  })
})
