import { createCookie } from '@remix-run/node'
import { type AppSettings, normalizeSettings } from '#app/settings.ts'

const YEAR = 365 * 24 * 60 * 60

/** SPEC §3 app settings (DESIGN §3 Settings): not secret, so not signed; read by the server render. */
const settingsCookie = createCookie('ps_settings', { sameSite: 'lax', path: '/', maxAge: YEAR })

export async function getSettings(request: Request): Promise<AppSettings> {
  try {
    return normalizeSettings(await settingsCookie.parse(request.headers.get('cookie')))
  } catch {
    return normalizeSettings(null)
  }
}

export function serializeSettings(s: AppSettings): Promise<string> {
  return settingsCookie.serialize(s)
}

/**
 * SPEC §3 Tab bar: the pages visited, kept in a cookie so the bar is the same on the server render and
 * without JavaScript. Only paths and queries are stored (title and name come from the menu).
 */
const tabsCookie = createCookie('ps_tabs', { sameSite: 'lax', path: '/', maxAge: 7 * 24 * 60 * 60 })
export const MAX_TABS = 12

export async function getTabs(request: Request): Promise<string[]> {
  try {
    const v = await tabsCookie.parse(request.headers.get('cookie'))
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string' && p.startsWith('/') && !p.startsWith('//')).slice(0, MAX_TABS) : []
  } catch {
    return []
  }
}

export function serializeTabs(tabs: string[]): Promise<string> {
  return tabsCookie.serialize(tabs.slice(-MAX_TABS))
}
