import { describe, expect, it } from 'vitest'
import { SandboxOAuth } from './sandbox.ts'
import { CodeRejected } from './types.ts'

const REDIRECT = 'http://localhost:3000/login/qq'

describe('the sandbox consent page', () => {
  const sandbox = new SandboxOAuth('k', 'http://127.0.0.1:4000')

  it('signs its consent link: the redirect_uri and state cannot be swapped', () => {
    const url = new URL(sandbox.provider('qq').authorizationUrl({ state: 'S', redirectUri: REDIRECT }))
    const p = Object.fromEntries(url.searchParams)
    expect(sandbox.verifyConsent({ provider: 'qq', redirectUri: REDIRECT, state: 'S', sig: p.sig! })).toBe(true)
    expect(sandbox.verifyConsent({ provider: 'qq', redirectUri: 'http://evil.example/', state: 'S', sig: p.sig! })).toBe(false)
    expect(sandbox.verifyConsent({ provider: 'wechat', redirectUri: REDIRECT, state: 'S', sig: p.sig! })).toBe(false)
  })

  it('a named identity is stable; a code works once, for its provider and redirect_uri', async () => {
    const who = sandbox.identityFor('qq', { name: 'Alice' })!
    expect(sandbox.identityFor('qq', { name: 'Alice' })).toEqual(who)
    expect(sandbox.identityFor('qq', { name: '' })).toBeNull()
    const code = sandbox.issueCode('qq', who, REDIRECT)
    await expect(sandbox.provider('wechat').identify({ code, redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
    const again = sandbox.issueCode('qq', who, REDIRECT)
    expect(await sandbox.provider('qq').identify({ code: again, redirectUri: REDIRECT })).toEqual(who)
    await expect(sandbox.provider('qq').identify({ code: again, redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
  })

  it('codes expire after 10 minutes', async () => {
    let now = 0
    const timed = new SandboxOAuth('k', 'http://x', () => now)
    const code = timed.issueCode('wechat', timed.identityFor('wechat', { key: 'a' })!, REDIRECT)
    now = 10 * 60_000 + 1
    await expect(timed.provider('wechat').identify({ code, redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
  })
})
