import { RemixI18Next } from 'remix-i18next/server'
import { i18nConfig, type Locale, resolveLocale, resources } from '#app/i18n.ts'
import { localeCookie } from './session.ts'

/** The visitor's language from a `Cookie` header (the `ps_lng` cookie); also what the busy page reads (web-server.mjs). */
export async function localeOfCookies(cookieHeader: string | null | undefined): Promise<Locale> {
  return resolveLocale(await localeCookie.parse(cookieHeader ?? null))
}

export async function getLocale(request: Request) {
  return localeOfCookies(request.headers.get('cookie'))
}

export const i18n = new RemixI18Next({
  detection: {
    supportedLanguages: [...i18nConfig.supportedLngs],
    fallbackLanguage: 'zh-CN',
    findLocale: getLocale,
    order: ['custom'],
  },
  i18next: { ...i18nConfig, resources },
})

const fixedT = new Map<string, ReturnType<typeof i18n.getFixedT>>()
/** The translate function of the request's locale (cached per locale; catalogs are static). */
export async function getT(request: Request) {
  const locale = await getLocale(request)
  let t = fixedT.get(locale)
  if (!t) {
    t = i18n.getFixedT(locale)
    fixedT.set(locale, t)
  }
  return t
}

/** SPEC §2: the page title is '{translated menu label} - {site name}'. */
export async function pageTitle(request: Request, key: string): Promise<string> {
  const t = await getT(request)
  return `${t(key)} - ${t('common.siteName')}`
}
