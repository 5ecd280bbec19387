import enAudit from './locales/en-US/audit.json'
import enAuth from './locales/en-US/auth.json'
import enChannels from './locales/en-US/channels.json'
import enCommon from './locales/en-US/common.json'
import enErrors from './locales/en-US/errors.json'
import enIncome from './locales/en-US/income.json'
import enLinks from './locales/en-US/links.json'
import enMenu from './locales/en-US/menu.json'
import enOAuth from './locales/en-US/oauth.json'
import enModeration from './locales/en-US/moderation.json'
import enMessages from './locales/en-US/messages.json'
import enOrders from './locales/en-US/orders.json'
import enOversight from './locales/en-US/oversight.json'
import enPages from './locales/en-US/pages.json'
import enPublic from './locales/en-US/public.json'
import enSettings from './locales/en-US/settings.json'
import enShares from './locales/en-US/shares.json'
import enShell from './locales/en-US/shell.json'
import enSubscriptions from './locales/en-US/subscriptions.json'
import enStatistics from './locales/en-US/statistics.json'
import enSystem from './locales/en-US/system.json'
import enUsers from './locales/en-US/users.json'
import enValidation from './locales/en-US/validation.json'
import enWithdrawals from './locales/en-US/withdrawals.json'
import zhAudit from './locales/zh-CN/audit.json'
import zhAuth from './locales/zh-CN/auth.json'
import zhChannels from './locales/zh-CN/channels.json'
import zhCommon from './locales/zh-CN/common.json'
import zhErrors from './locales/zh-CN/errors.json'
import zhIncome from './locales/zh-CN/income.json'
import zhLinks from './locales/zh-CN/links.json'
import zhMenu from './locales/zh-CN/menu.json'
import zhOAuth from './locales/zh-CN/oauth.json'
import zhModeration from './locales/zh-CN/moderation.json'
import zhMessages from './locales/zh-CN/messages.json'
import zhOrders from './locales/zh-CN/orders.json'
import zhOversight from './locales/zh-CN/oversight.json'
import zhPages from './locales/zh-CN/pages.json'
import zhPublic from './locales/zh-CN/public.json'
import zhSettings from './locales/zh-CN/settings.json'
import zhShares from './locales/zh-CN/shares.json'
import zhShell from './locales/zh-CN/shell.json'
import zhSubscriptions from './locales/zh-CN/subscriptions.json'
import zhStatistics from './locales/zh-CN/statistics.json'
import zhSystem from './locales/zh-CN/system.json'
import zhUsers from './locales/zh-CN/users.json'
import zhValidation from './locales/zh-CN/validation.json'
import zhWithdrawals from './locales/zh-CN/withdrawals.json'

/** SPEC §9: zh-CN and en-US; default zh-CN; English for anything else. */
export const LOCALES = ['zh-CN', 'en-US'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'zh-CN'

/** Each catalog file is one top-level key: `validation.passwordRule` lives in validation.json. */
export const resources = {
  'zh-CN': {
    translation: {
      audit: zhAudit, auth: zhAuth, channels: zhChannels, common: zhCommon, errors: zhErrors, income: zhIncome, links: zhLinks, menu: zhMenu, messages: zhMessages, moderation: zhModeration, oauth: zhOAuth, orders: zhOrders, oversight: zhOversight, pages: zhPages, public: zhPublic,
      settings: zhSettings, shares: zhShares, shell: zhShell, subscriptions: zhSubscriptions, system: zhSystem, users: zhUsers, validation: zhValidation, withdrawals: zhWithdrawals,
      statistics: zhStatistics,
    },
  },
  'en-US': {
    translation: {
      audit: enAudit, auth: enAuth, channels: enChannels, common: enCommon, errors: enErrors, income: enIncome, links: enLinks, menu: enMenu, messages: enMessages, moderation: enModeration, oauth: enOAuth, orders: enOrders, oversight: enOversight, pages: enPages, public: enPublic,
      settings: enSettings, shares: enShares, shell: enShell, subscriptions: enSubscriptions, system: enSystem, users: enUsers, validation: enValidation, withdrawals: enWithdrawals,
      statistics: enStatistics,
    },
  },
}

/** A stored choice: zh-CN stays, any other value means English (SPEC §9). No choice: the default. */
export function resolveLocale(stored: string | null | undefined): Locale {
  if (!stored) return DEFAULT_LOCALE
  return stored === 'zh-CN' ? 'zh-CN' : 'en-US'
}

export const i18nConfig = {
  supportedLngs: [...LOCALES],
  fallbackLng: 'en-US',
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  returnNull: false,
} as const
