import type { TFunction } from 'i18next'

/**
 * SPEC §8: what the user reads for an API answer's `msg`. A catalog key is translated; any other text
 * is the server's own message and is shown as it is; 'Error' only when there is no msg at all.
 */
export function apiMessage(t: TFunction, msg: string | null | undefined, values?: Record<string, string>): string {
  if (!msg) return t('errors.error')
  return t(msg, { ...values, defaultValue: msg })
}

/** The generic texts a 5xx page replaces with SPEC §8's 'Internal server error'. */
const GENERIC = new Set(['errors.error', 'errors.internal'])

/**
 * The text of an error page (SPEC §8 page messages). 403 and 404 have their fixed texts; a server failure
 * (500–599) says 'Internal server error' and adds the server's own msg when it says more; any other
 * status shows the server's msg ('Error' without one).
 */
export function exceptionText(t: TFunction, status: number, msg?: string | null): { text: string; detail?: string } {
  if (status === 403) return { text: t('pages.forbidden') }
  if (status === 404) return { text: t('pages.notFound') }
  if (status >= 500) {
    const detail = msg && !GENERIC.has(msg) ? apiMessage(t, msg) : undefined
    return detail ? { text: t('pages.serverError'), detail } : { text: t('pages.serverError') }
  }
  return { text: apiMessage(t, msg) }
}
