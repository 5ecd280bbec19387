import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WechatLoginFake } from '../../../test/fakes/wechat-login.ts'
import { CodeRejected, ProviderUnavailable } from './types.ts'
import { WechatLoginProvider } from './wechat.ts'

const REDIRECT = 'http://localhost:3000/login/wechat'

describe('WeChat website login against a local fake', () => {
  let wx: WechatLoginFake
  let provider: WechatLoginProvider
  beforeAll(async () => {
    wx = await new WechatLoginFake().start()
    provider = new WechatLoginProvider({ appId: wx.appId, appSecret: wx.appSecret, openBaseUrl: wx.url, apiBaseUrl: wx.url })
  })
  afterAll(() => wx.stop())

  it('builds the qrconnect URL with snsapi_login and the #wechat_redirect fragment', () => {
    const url = new URL(provider.authorizationUrl({ state: 'S1', redirectUri: REDIRECT }))
    expect(url.pathname).toBe('/connect/qrconnect')
    expect(url.hash).toBe('#wechat_redirect')
    expect(Object.fromEntries(url.searchParams)).toEqual({ appid: wx.appId, redirect_uri: REDIRECT, response_type: 'code', scope: 'snsapi_login', state: 'S1' })
  })

  it('turns a code into openid, unionid and nickname', async () => {
    const code = wx.authorize({ openid: 'o-1', unionid: 'u-1', nickname: '小红' })
    expect(await provider.identify({ code, redirectUri: REDIRECT })).toEqual({ openid: 'o-1', unionid: 'u-1', nickname: '小红' })
  })

  it('an app without a unionid gives the openid alone', async () => {
    const code = wx.authorize({ openid: 'o-2', nickname: 'n' })
    expect(await provider.identify({ code, redirectUri: REDIRECT })).toEqual({ openid: 'o-2', unionid: null, nickname: 'n' })
  })

  it('40029 (expired or unknown) and 40163 (used) codes are refused codes', async () => {
    const code = wx.authorize({ openid: 'o-3', nickname: 'n' })
    await provider.identify({ code, redirectUri: REDIRECT })
    await expect(provider.identify({ code, redirectUri: REDIRECT })).rejects.toThrow(/40163/)
    const old = wx.authorize({ openid: 'o-4', nickname: 'n' })
    wx.expire(old)
    await expect(provider.identify({ code: old, redirectUri: REDIRECT })).rejects.toThrow(CodeRejected)
    await expect(provider.identify({ code: 'forged', redirectUri: REDIRECT })).rejects.toThrow(/40029/)
  })

  it('a wrong secret (40125) is a configuration failure', async () => {
    const wrong = new WechatLoginProvider({ appId: wx.appId, appSecret: 'nope', openBaseUrl: wx.url, apiBaseUrl: wx.url })
    const code = wx.authorize({ openid: 'o-5', nickname: 'n' })
    await expect(wrong.identify({ code, redirectUri: REDIRECT })).rejects.toThrow(ProviderUnavailable)
  })
})
