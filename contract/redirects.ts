/**
 * Where a redirect may send the browser when its target comes from a request (issue 20; decision 105):
 * the console's `/login?redirect=`, `/redirect/*`, `redirectTo` of /locale and /settings, `from` of
 * /bind/<provider>; the API's sandbox checkout and consent pages' return URLs. The one check all of
 * them use.
 *
 * The value is resolved the way a browser resolves a Location (WHATWG URL: dot segments and `%2e`
 * collapse, `\` is `/`), and what is sent is that resolved, serialised form — never the raw value —
 * after checking that it is still a path of the site: it starts with one `/` and no second `/` or `\`.
 * `/.//evil.example` resolves to `//evil.example` and is refused (the check before this one looked at
 * the value before resolving it and sent what it resolved to).
 */

/** Longer than any path of the site with its query; also well under every header limit. */
export const REDIRECT_MAX_LENGTH = 2048

// C0 and C1 controls and DEL: browsers drop TAB/CR/LF inside URLs (`/\t/evil.example` is `//evil.example`)
// and CR/LF would split the header. Never part of a target we built: a forged request.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// Whitespace of any kind (NBSP, U+2028, U+3000, BOM…) and backslashes: never in a path we send.
const SUSPECT = /[\s\\]/
/** A path of the site: one `/`, then anything but a second `/` or `\` (`//host` and `/\host` are other hosts). */
const SITE_PATH = /^\/(?![/\\])/
// Any origin stands in for the site's: only the path, query and fragment are kept.
const STAND_IN = 'http://site.invalid'

export type RedirectTarget =
  /** Where to go: a path (`/…`), or with `origin` given an absolute URL on that origin. */
  | { ok: true; to: string }
  /** `forged`: control characters (answer 400); `elsewhere`: not a target of this site (use the fallback). */
  | { ok: false; reason: 'forged' | 'elsewhere' }

/**
 * Checks a redirect target taken from a request. Without `origin` only a path of this site passes
 * (the console). With `origin` (the API, sending the browser back to the console), an absolute http(s)
 * URL on exactly that origin passes too, and the answer is absolute.
 */
export function redirectTarget(value: unknown, opts: { origin?: string } = {}): RedirectTarget {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: 'elsewhere' }
  if (CONTROL.test(value)) return { ok: false, reason: 'forged' }
  if (value.length > REDIRECT_MAX_LENGTH || SUSPECT.test(value)) return { ok: false, reason: 'elsewhere' }
  const site = opts.origin ? originOf(opts.origin) : STAND_IN
  if (!site) return { ok: false, reason: 'elsewhere' }
  let url: URL
  try {
    url = SITE_PATH.test(value) ? new URL(value, site) : new URL(value)
  } catch {
    return { ok: false, reason: 'elsewhere' }
  }
  if (url.origin !== site || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { ok: false, reason: 'elsewhere' }
  if (!SITE_PATH.test(value) && !opts.origin) return { ok: false, reason: 'elsewhere' }
  // The resolved path must itself be a path of the site, and read back as itself (nothing left to reinterpret).
  const path = url.pathname + url.search + url.hash
  if (!SITE_PATH.test(path) || new URL(path, site).href !== url.href) return { ok: false, reason: 'elsewhere' }
  return { ok: true, to: opts.origin ? url.href : path }
}

function originOf(value: string): string | null {
  try {
    return new URL(value).origin
  } catch {
    return null
  }
}
