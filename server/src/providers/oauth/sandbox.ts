import crypto from 'node:crypto'
import type { OAuthProvider } from '#contract/oauth.ts'
import { CodeRejected, type OAuthIdentity, type OAuthLoginProvider } from './types.ts'

/** Codes live 10 minutes and work once, as QQ's and WeChat's do (research/INTEGRATIONS.md §3). */
const CODE_TTL_MS = 10 * 60_000

/** The ready-made identities of the sandbox consent page. */
export const SANDBOX_IDENTITIES = [
  { key: 'a', nickname: '沙箱用户甲 Sandbox A' },
  { key: 'b', nickname: '沙箱用户乙 Sandbox B' },
] as const

/**
 * The built-in stand-in for QQ and WeChat when their credentials are not configured (like the payment
 * sandbox, decision 034): a consent page served by the API (/api/oauth/sandbox/authorize) lets the
 * user pick a test identity and sends the browser back to the callback with a code, which only this
 * process can exchange. Off in production unless OAUTH_SANDBOX=true.
 */
export class SandboxOAuth {
  private codes = new Map<string, { provider: OAuthProvider; identity: OAuthIdentity; redirectUri: string; expiresAt: number }>()

  constructor(
    private readonly key: string,
    private readonly apiPublicUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  private sign(payload: string) {
    return crypto.createHmac('sha256', this.key).update(payload).digest('base64url')
  }

  private consentSignature(p: { provider: string; redirectUri: string; state: string }) {
    return this.sign(`consent\n${p.provider}\n${p.redirectUri}\n${p.state}`)
  }

  /** The consent page link carries a signature, so it cannot send codes to a redirect_uri we did not build. */
  verifyConsent(p: { provider: string; redirectUri: string; state: string; sig: string }): boolean {
    const expected = Buffer.from(this.consentSignature(p))
    const got = Buffer.from(p.sig)
    return expected.length === got.length && crypto.timingSafeEqual(expected, got)
  }

  /**
   * A test identity: a ready-made one by key, or one named by the user. The same name always gives the
   * same openid, so "log in again as X" finds the account X created. WeChat ones carry a unionid too.
   */
  identityFor(provider: OAuthProvider, choice: { key?: string; name?: string }): OAuthIdentity | null {
    const ready = SANDBOX_IDENTITIES.find((i) => i.key === choice.key)
    const name = ready?.nickname ?? choice.name?.trim()
    if (!name || name.length > 40) return null
    const id = crypto.createHash('sha256').update(name).digest('hex').slice(0, 24)
    return { openid: `sbx-${provider}-${id}`, unionid: provider === 'wechat' ? `sbx-union-${id}` : null, nickname: name }
  }

  /** What the consent page's Continue button does: a one-time code for that identity and redirect_uri. */
  issueCode(provider: OAuthProvider, identity: OAuthIdentity, redirectUri: string): string {
    const code = crypto.randomBytes(18).toString('base64url')
    const now = this.now()
    for (const [c, v] of this.codes) if (v.expiresAt < now) this.codes.delete(c)
    this.codes.set(code, { provider, identity, redirectUri, expiresAt: now + CODE_TTL_MS })
    return code
  }

  provider(provider: OAuthProvider): OAuthLoginProvider {
    return {
      provider,
      kind: 'sandbox',
      authorizationUrl: ({ state, redirectUri }) => {
        const params = new URLSearchParams({ provider, redirect_uri: redirectUri, state })
        params.set('sig', this.consentSignature({ provider, redirectUri, state }))
        return `${this.apiPublicUrl}/api/oauth/sandbox/authorize?${params}`
      },
      identify: async ({ code, redirectUri }) => {
        const issued = this.codes.get(code)
        // Single use, like the real ones: the first exchange spends it.
        this.codes.delete(code)
        if (!issued || issued.provider !== provider || issued.redirectUri !== redirectUri || issued.expiresAt < this.now()) {
          throw new CodeRejected('sandbox: invalid code')
        }
        return issued.identity
      },
    }
  }
}
