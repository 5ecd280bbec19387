import crypto from 'node:crypto'
import type { OAuthProvider } from '#contract/oauth.ts'
import type { Config } from '../../config.ts'
import { QQLoginProvider } from './qq.ts'
import { SandboxOAuth } from './sandbox.ts'
import type { OAuthLoginProvider } from './types.ts'
import { WechatLoginProvider } from './wechat.ts'

export type OAuthProviders = {
  /** The provider serving QQ / WeChat login: the real one when configured, else the sandbox when allowed. */
  get(provider: OAuthProvider): OAuthLoginProvider | undefined
  /** Undefined when OAUTH_SANDBOX=false (the production default). */
  sandbox: SandboxOAuth | undefined
}

export type OAuthOverrides = Partial<Record<OAuthProvider, OAuthLoginProvider>> & { sandbox?: SandboxOAuth }

/** Chooses QQ (QQ_APP_ID/QQ_APP_KEY) and WeChat (WECHAT_LOGIN_*) when configured, else the sandbox. */
export function createOAuthProviders(config: Pick<Config, 'oauth' | 'secrets' | 'apiPublicUrl'>, overrides: OAuthOverrides = {}): OAuthProviders {
  const key = crypto.createHmac('sha256', config.secrets.codePepper).update('oauth-sandbox').digest('hex')
  const sandbox = config.oauth.sandbox ? (overrides.sandbox ?? new SandboxOAuth(key, config.apiPublicUrl)) : undefined
  const qq = overrides.qq ?? (config.oauth.qq ? new QQLoginProvider(config.oauth.qq) : sandbox?.provider('qq'))
  const wechat = overrides.wechat ?? (config.oauth.wechat ? new WechatLoginProvider(config.oauth.wechat) : sandbox?.provider('wechat'))
  return { get: (p) => (p === 'qq' ? qq : wechat), sandbox }
}

type StartupLine = { level: 'info' | 'warn' | 'error'; msg: string }
const NAMES = { qq: 'QQ', wechat: 'WeChat' } as const

/** What the API says at start about QQ / WeChat login; the sandbox loudly, an error line in production. */
export function oauthStartupReport(providers: OAuthProviders, config: Pick<Config, 'env'>): StartupLine[] {
  const lines: StartupLine[] = (['qq', 'wechat'] as const).map((p) => {
    const served = providers.get(p)
    const by = !served ? 'not offered (no credentials, sandbox off)' : served.kind === 'sandbox' ? 'the SANDBOX consent page' : `${NAMES[p]} (app configured)`
    return { level: 'info', msg: `LOGIN: ${NAMES[p]} login → ${by}` }
  })
  const sandboxed = (['qq', 'wechat'] as const).filter((p) => providers.get(p)?.kind === 'sandbox').map((p) => NAMES[p])
  if (sandboxed.length && config.env === 'production') {
    lines.push({
      level: 'error',
      msg: `LOGIN: !!! THE SANDBOX STANDS IN FOR ${sandboxed.join(' AND ').toUpperCase()} LOGIN IN PRODUCTION (OAUTH_SANDBOX=true): anyone can pick a test identity and log in with it. A deployment configures QQ_APP_*/WECHAT_LOGIN_* and leaves OAUTH_SANDBOX unset.`,
    })
  } else if (sandboxed.length) {
    lines.push({ level: 'warn', msg: `LOGIN: ${sandboxed.join(' and ')} login go through the SANDBOX consent page (test identities). Configure QQ_APP_ID/QQ_APP_KEY and WECHAT_LOGIN_APP_ID/WECHAT_LOGIN_APP_SECRET for the real ones.` })
  }
  return lines
}
