import { data } from '@remix-run/node'

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
 * The origin check Remix runs before a page's action (`throwIfPotentialCSRFAttack`), for the actions
 * Remix does not check itself: those of routes without a page (`/logout`, `/locale`). A browser sends
 * `Origin` with every POST; a cross-site one (or `null`, a sandboxed or privacy-redirected form) is
 * refused. The host compared is the one the browser addressed (`X-Forwarded-Host` behind a proxy).
 */
export function requireSameOrigin(request: Request) {
  const origin = request.headers.get('origin')
  const site = request.headers.get('sec-fetch-site')
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host')
  let originHost: string | null = null
  if (origin) {
    try {
      originHost = origin === 'null' ? null : new URL(origin).host
    } catch {}
  }
  if ((origin && (!originHost || originHost !== host)) || site === 'cross-site') {
    throw data({ msg: 'errors.forbiddenOrigin' }, { status: 403 })
  }
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

/**
 * Every action reads its form through here: a body that is not a form (JSON, junk, a broken multipart)
 * is the client's mistake — 400, never a 500 from `request.formData()` throwing.
 */
export async function readForm(request: Request): Promise<FormData> {
  requireSameOrigin(request)
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!FORM_TYPES.includes(type)) throw badRequest()
  try {
    return await request.formData()
  } catch {
    throw badRequest()
  }
}
