import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/helpers.ts'
import { securityHeaders } from './helmet.ts'

// The security headers every answer carries, computed once at start (decision 150), as helmet writes them.
const EXPECTED = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
}

describe('security headers', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(() => t.close())

  it('are what helmet writes with our options, and nothing it leaves out (CSP, old-browser headers)', () => {
    expect(securityHeaders()).toEqual(EXPECTED)
  })

  it('are on every answer: a success, a refusal, a validation error, an unknown path', async () => {
    for (const url of ['/api/health', '/api/users/list', '/api/share?unicode=', '/api/nothing-here']) {
      const res = await t.app.inject({ url })
      for (const [name, value] of Object.entries(EXPECTED)) expect(res.headers[name], `${url} ${name}`).toBe(value)
      expect(res.headers['content-security-policy'], url).toBeUndefined()
      expect(res.headers['x-powered-by'], url).toBeUndefined()
    }
  })
})
