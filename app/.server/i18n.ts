import { RemixI18Next } from 'remix-i18next/server'
import { i18nConfig, resolveLocale, resources } from '~/i18n.ts'
import { localeCookie } from './session.ts'

export async function getLocale(request: Request) {
  return resolveLocale(await localeCookie.parse(request.headers.get('cookie')))
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

export const getT = (request: Request) => i18n.getFixedT(request)

/** SPEC §2: the page title is '{translated menu label} - {site name}'. */
export async function pageTitle(request: Request, key: string): Promise<string> {
  const t = await getT(request)
  return `${t(key)} - ${t('common.siteName')}`
}
