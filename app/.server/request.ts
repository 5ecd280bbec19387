import { data } from '@remix-run/node'
import { LOCALES, type Locale } from '#app/i18n.ts'
import { getT, i18n } from './i18n.ts'

/** A client error the page shows as such (the root error boundary renders `msg`). */
export function badRequest(msg = 'errors.badRequest') {
  return data({ msg }, { status: 400 })
}

/**
 * "Service temporarily unavailable": the API did not answer (or only its proxy did). The session is
 * kept; the page says so and retries by itself (components/feedback/error-boundary.tsx).
 */
export function serviceUnavailable() {
  return data({ msg: 'errors.serviceUnavailable', unavailable: true }, { status: 503 })
}

/**
 * Whether a browser sent this from another site: an `Origin` of another host (or `null`, a sandboxed or
 * privacy-redirected form), or `Sec-Fetch-Site: cross-site`. The host compared is the one the browser
 * addressed (`X-Forwarded-Host` behind a proxy), as Remix compares it.
 */
function fromAnotherSite(headers: Headers): boolean {
  const origin = headers.get('origin')
  const site = headers.get('sec-fetch-site')
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host')
  let originHost: string | null = null
  if (origin) {
    try {
      originHost = origin === 'null' ? null : new URL(origin).host
    } catch {}
  }
  return Boolean(origin && (!originHost || originHost !== host)) || site === 'cross-site'
}

const forbiddenOrigin = () => data({ msg: 'errors.forbiddenOrigin' }, { status: 403 })

/** The origin check of every action (`readForm` runs it), and of an action that reads no form. */
export function requireSameOrigin(request: Request) {
  if (fromAnotherSite(request.headers)) throw forbiddenOrigin()
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The web server asks this before Remix handles a request (`web-server.mjs`, exported by
 * entry.server): a write from another site is answered 403 with the message in the visitor's language,
 * and no action runs. Remix's own check (`throwIfPotentialCSRFAttack`, before a page's action) refuses
 * such a post too, but answers a bare 500 (issue 20).
 */
export async function crossSiteRefusal(request: Request): Promise<Response | null> {
  if (SAFE_METHODS.has(request.method) || !fromAnotherSite(request.headers)) return null
  const t = await getT(request)
  const text = t('errors.forbiddenOrigin')
  const page = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>403 - ${escapeHtml(t('common.siteName'))}</title></head><body><h1>403</h1><p role="alert">${escapeHtml(text)}</p><p><a href="/">${escapeHtml(t('public.backHome'))}</a></p></body></html>`
  return new Response(page, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
}

/**
 * The console past its capacity (web-load.mjs's load shedder, decisions 141 and 163): 503 with
 * Retry-After and the "service busy" page in the visitor's language, answered before Express and Remix,
 * so that a crowd is told at once to come back instead of waiting tens of seconds in the queue. A browser
 * reloads it by itself. Rendered once per language at start: a refusal must cost next to nothing, or the
 * refusals take the CPU the pages need (decision 163).
 */
export async function busyPages(retryAfterSeconds = 5): Promise<Record<Locale, string>> {
  const pages = {} as Record<Locale, string>
  for (const locale of LOCALES) {
    const t = await i18n.getFixedT(locale)
    const title = escapeHtml(t('errors.serviceUnavailable'))
    pages[locale] = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta http-equiv="refresh" content="${retryAfterSeconds}"><title>${title} - ${escapeHtml(t('common.siteName'))}</title></head><body><h1>${title}</h1><p role="alert">${escapeHtml(t('errors.busyText'))}</p></body></html>`
  }
  return pages
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

/** The `intent` values an action has: names, or a pattern for a family (`buy-<id>`). */
export type Intents = readonly (string | RegExp)[]

/**
 * Every action reads its form through here: a body that is not a form (JSON, junk, a broken multipart)
 * is the client's mistake — 400, never a 500 from `request.formData()` throwing.
 *
 * `intents`: the values of the `intent` field this action has (STYLE: several mutations on one page
 * use an `intent` field); none for an action with one thing to do. A form may name none (the action's
 * default) or exactly one of them. Any other intent — a forged or stale post, a script — is a 400
 * here, before anything runs: the actions' `if (intent === …)` chains would otherwise fall through to
 * their default work, or to code that expects that work's fields (issue 20: `POST /login` with an
 * unknown intent was a 500).
 */
export async function readForm(request: Request, intents: Intents = []): Promise<FormData> {
  requireSameOrigin(request)
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!FORM_TYPES.includes(type)) throw badRequest()
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    throw badRequest()
  }
  const named = form.getAll('intent')
  if (named.length > 1 || (named.length === 1 && !isIntent(named[0]!, intents))) throw badRequest()
  return form
}

const isIntent = (value: FormDataEntryValue, intents: Intents) =>
  typeof value === 'string' && intents.some((i) => (typeof i === 'string' ? i === value : i.test(value)))
