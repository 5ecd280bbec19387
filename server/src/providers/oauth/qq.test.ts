import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QQConnectFake } from '../../../test/fakes/qq-connect.ts'
import { QQLoginProvider, parseQQAnswer } from './qq.ts'
import { CodeRejected, ProviderUnavailable } from './types.ts'

const REDIRECT = 'http://localhost:3000/login/qq'

describe('QQ Connect login against a local fake', () => {
  let qq: QQConnectFake
  let provider: QQLoginProvider
  beforeAll(async () => {
    qq = await new QQConnectFake().start()
    provider = new QQLoginProvider({ appId: qq.appId, appKey: qq.appKey, baseUrl: qq.url, unionid: true })
  })
  afterAll(() => qq.stop())

  it('reads the three answer shapes QQ uses', () => {
    expect(parseQQAnswer('access_token=AT&expires_in=7776000&refresh_token=RT')).toMatchObject({ access_token: 'AT', expires_in: '7776000' })
    expect(parseQQAnswer('callback( {"client_id":"1","openid":"OID"} );\n')).toEqual({ client_id: '1', openid: 'OID' })
    expect(parseQQAnswer('{"error":100019,"error_description":"code to access token error"}')).toMatchObject({ error: 100019 })
    expect(() => parseQQAnswer('<html>busy</html>')).toThrow(ProviderUnavailable)
    expect(() => parseQQAnswer('callback( {oops} );')).toThrow(ProviderUnavailable)
  })

  it('builds the authorize URL with the app id, redirect_uri, state and scope', () => {
    const url = new URL(provider.authorizationUrl({ state: 'S1', redirectUri: REDIRECT }))
    expect(url.pathname).toBe('/oauth2.0/authorize')
    expect(Object.fromEntries(url.searchParams)).toEqual({ response_type: 'code', client_id: qq.appId, redirect_uri: REDIRECT, state: 'S1', scope: 'get_user_info' })
  })

  it('turns a code into openid, unionid and nickname (token → me → get_user_info)', async () => {
    const code = qq.authorize({ openid: 'OPENID-1', unionid: 'UNION-1', nickname: '小明' }, REDIRECT)
    expect(await provider.identify({ code, redirectUri: REDIRECT })).toEqual({ openid: 'OPENID-1', unionid: 'UNION-1', nickname: '小明' })
    const token = qq.requests.find((u) => u.pathname === '/oauth2.0/token')!
    expect(token.searchParams.get('client_secret')).toBe(qq.appKey)
    expect(token.searchParams.get('redirect_uri')).toBe(REDIRECT)
  })

  it('refuses a reused, expired, unknown or wrong-redirect code', async () => {
    const code = qq.authorize({ openid: 'OPENID-2', nickname: 'x' }, REDIRECT)
    await provider.identify({ code, redirectUri: REDIRECT })
    await expect(provider.identify({ code, redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
    const old = qq.authorize({ openid: 'OPENID-3', nickname: 'x' }, REDIRECT)
    qq.expire(old)
    await expect(provider.identify({ code: old, redirectUri: REDIRECT })).rejects.toThrow(/100019/)
    await expect(provider.identify({ code: 'FORGED', redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
    const other = qq.authorize({ openid: 'OPENID-4', nickname: 'x' }, REDIRECT)
    // 100010 redirect uri is illegal: the app's configuration, not the user's code.
    await expect(provider.identify({ code: other, redirectUri: 'http://evil.example/cb' })).rejects.toThrow(ProviderUnavailable)
  })

  it('a wrong app key is a configuration failure, not a bad code', async () => {
    const wrong = new QQLoginProvider({ appId: qq.appId, appKey: 'nope', baseUrl: qq.url })
    const code = qq.authorize({ openid: 'OPENID-5', nickname: 'x' }, REDIRECT)
    await expect(wrong.identify({ code, redirectUri: REDIRECT })).rejects.toThrow(ProviderUnavailable)
  })

  it('without the unionid permission, /me answers 100048 in its callback( … ) wrapper', async () => {
    qq.unionidPermission = false
    try {
      const code = qq.authorize({ openid: 'OPENID-6', nickname: 'x' }, REDIRECT)
      await expect(provider.identify({ code, redirectUri: REDIRECT })).rejects.toThrow(/100048/)
      const plain = new QQLoginProvider({ appId: qq.appId, appKey: qq.appKey, baseUrl: qq.url })
      const again = qq.authorize({ openid: 'OPENID-6', nickname: 'y' }, REDIRECT)
      expect(await plain.identify({ code: again, redirectUri: REDIRECT })).toEqual({ openid: 'OPENID-6', unionid: null, nickname: 'y' })
    } finally {
      qq.unionidPermission = true
    }
  })

  it('an unreachable QQ is ProviderUnavailable', async () => {
    const down = new QQLoginProvider({ appId: qq.appId, appKey: qq.appKey, baseUrl: 'http://127.0.0.1:1' })
    await expect(down.identify({ code: 'X', redirectUri: REDIRECT })).rejects.toThrow(ProviderUnavailable)
  })
})
