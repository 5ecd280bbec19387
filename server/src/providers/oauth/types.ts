import type { OAuthProvider } from '#contract/oauth.ts'

/** Who came back from a provider's consent page (research/INTEGRATIONS.md §3). */
export type OAuthIdentity = { openid: string; unionid: string | null; nickname: string }

/**
 * One QQ or WeChat login: the real provider, or the sandbox standing in for it. The API keeps the
 * state; a provider only builds its consent URL and turns a code into an identity.
 */
export interface OAuthLoginProvider {
  readonly provider: OAuthProvider
  /** Which implementation serves the provider (for the start-up report and the consent page). */
  readonly kind: 'qq' | 'wechat' | 'sandbox'
  authorizationUrl(i: { state: string; redirectUri: string }): string
  /** Exchanges the code and reads the identity; throws CodeRejected or ProviderUnavailable. */
  identify(i: { code: string; redirectUri: string }): Promise<OAuthIdentity>
}

/** The provider refused the code (expired, reused, forged, for another app): the user starts again. */
export class CodeRejected extends Error {}

/** The provider could not be reached or answered what we cannot read: try again later. */
export class ProviderUnavailable extends Error {}

/** GET a provider URL and read its body as text; network failures and timeouts are ProviderUnavailable. */
export async function getText(url: URL): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(8_000), redirect: 'error' })
    const text = await res.text()
    if (res.status >= 500) throw new ProviderUnavailable(`${url.pathname}: HTTP ${res.status}`)
    return text
  } catch (e) {
    if (e instanceof ProviderUnavailable) throw e
    throw new ProviderUnavailable(`${url.pathname}: ${e instanceof Error ? e.message : String(e)}`)
  }
}
