import { describe, expect, it } from 'vitest'
import { createOAuthProviders, oauthStartupReport } from './index.ts'

const base = { secrets: { sessionSecret: 's', contentKey: 'c', codePepper: 'p' }, apiPublicUrl: 'http://127.0.0.1:4000' }

describe('choosing QQ / WeChat login providers', () => {
  it('configured providers serve; the sandbox stands in for the others while allowed, loudly', () => {
    const p = createOAuthProviders({ ...base, oauth: { sandbox: true, callbackBaseUrl: 'x', qq: { appId: '1', appKey: 'k', baseUrl: 'https://graph.qq.com', unionid: false } } })
    expect(p.get('qq')?.kind).toBe('qq')
    expect(p.get('wechat')?.kind).toBe('sandbox')
    const dev = oauthStartupReport(p, { env: 'development' })
    expect(dev.map((l) => l.msg)).toContain('LOGIN: QQ login → QQ (app configured)')
    expect(dev.at(-1)).toMatchObject({ level: 'warn' })
    expect(oauthStartupReport(p, { env: 'production' }).at(-1)).toMatchObject({ level: 'error' })
  })
  it('without the sandbox, a provider without credentials is not offered', () => {
    const p = createOAuthProviders({ ...base, oauth: { sandbox: false, callbackBaseUrl: 'x' } })
    expect(p.get('qq')).toBeUndefined()
    expect(p.sandbox).toBeUndefined()
    expect(oauthStartupReport(p, { env: 'production' }).map((l) => l.level)).toEqual(['info', 'info'])
  })
})
