import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { catalogsFollowing, readCatalogEntries } from './components/layout/catalogs.tsx'
import { loadDrawer } from './components/shell/drawer-module.ts'
import { i18nConfig, resolveLocale } from './i18n.ts'
import { ALWAYS, loadCatalogs, namespacesOf } from './locales/catalogs.ts'

async function hydrate() {
  const lng = resolveLocale(document.documentElement.lang)
  // Only the page's locale (switching it is a form post, i.e. a new page): to hydrate, the entries the
  // server render used (written into the page) and the namespaces every page needs; the whole catalogs
  // once hydrated (issue 11 JS budget, decision 100).
  const all = namespacesOf(lng)
  const written = readCatalogEntries()
  const first = await loadCatalogs(lng, written ? ALWAYS : all)
  await i18next.use(initReactI18next).init({
    ...i18nConfig,
    lng,
    resources: { [lng]: { translation: { ...written, ...first } } },
    // A text first needed after hydration, before the whole catalogs arrived, is drawn again when they do.
    react: { bindI18nStore: 'added' },
  })
  const rest = all.filter((n) => !(n in first))
  // The store's 'added' event redraws every component that translates: as a transition, so the redraw
  // yields to the browser every few milliseconds instead of blocking it for the whole tree (issue 24).
  if (written) catalogsFollowing(() => loadCatalogs(lng, rest).then((more) => startTransition(() => void i18next.addResourceBundle(lng, 'translation', more, true, true))))
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
