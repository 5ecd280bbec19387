import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { loadDrawer } from './components/shell/drawer-module.ts'
import { i18nConfig, resolveLocale } from './i18n.ts'

async function hydrate() {
  const lng = resolveLocale(document.documentElement.lang)
  // Only the page's locale (issue 11 JS budget); switching the locale is a form post, i.e. a new page.
  const catalogs = (lng === 'zh-CN' ? await import('./locales/zh-CN.ts') : await import('./locales/en-US.ts')).default
  await i18next.use(initReactI18next).init({
    ...i18nConfig,
    lng,
    resources: { [lng]: { translation: catalogs } },
  })
  // The server rendered the settings drawer open: its module must be here before hydrating it.
  if (new URLSearchParams(window.location.search).has('settings')) await loadDrawer()
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

hydrate()
