import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from '@mantine/core'
import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunction, useFetchers, useMatches, useRouteLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useChangeLanguage } from 'remix-i18next/react'
import { ConfirmLogout, FlashToast } from './components/feedback/flash.tsx'
import { NotificationsHost } from './components/feedback/notifications-host.tsx'
import { CatalogGate, CatalogList } from './components/layout/catalogs.tsx'
import { GeneralErrorBoundary } from './components/feedback/error-boundary.tsx'
import { useNonce } from './components/layout/nonce.tsx'
import { getLocale } from './.server/i18n.ts'
import { getSettings } from './.server/settings.ts'
import { readFlash } from './.server/toast.ts'
import { NavProgress, SubmitPending } from './components/shell/nav-progress.tsx'
import { type AppSettings, normalizeSettings, settingsFromForm } from './settings.ts'
import { usePublicCss } from './components/layout/public-css.tsx'
import consoleCss from './console.css?url'
import publicCss from './public.css?url'
import { themeFor } from './theme.ts'

export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await getLocale(request)
  const { flash, clear } = await readFlash(request)
  const settings = await getSettings(request)
  return data(
    { locale, settings, toast: flash?.toast ?? null, confirmLogout: flash?.confirmLogout ?? false },
    clear ? { headers: { 'set-cookie': clear } } : undefined,
  )
}

/**
 * A form refused with 500–504 left the "Confirm logout" flash (app/.server/failures.ts): read it, although
 * a failed action does not revalidate by default.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  (actionStatus !== undefined && actionStatus >= 500 && actionStatus <= 504) || defaultShouldRevalidate

/**
 * Routes whose `handle.hydrate` is false are the visitor pages (DESIGN §6): no client JavaScript (at
 * most a nonce'd inline script of their own), no Mantine provider or CSS — their own small stylesheet.
 */
export type RouteHandle = { hydrate?: boolean }

/**
 * The settings on screen: the cookie's (server render) or, while the drawer's change is on its way to
 * /settings, the submitted form's — so a change applies at once with JavaScript (issue 11).
 */
function useAppSettings(stored: AppSettings | undefined): AppSettings {
  const settings = stored ?? normalizeSettings(null)
  const pending = useFetchers().find((f) => f.formAction === '/settings' && f.formData && !f.formData.get('intent'))
  return pending?.formData ? settingsFromForm(pending.formData, settings) : settings
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>('root')
  const settings = useAppSettings(rootData?.settings)
  const locale = rootData?.locale ?? 'zh-CN'
  const nonce = useNonce()
  const publicCssText = usePublicCss()
  const matches = useMatches()
  const hydrate = !matches.some((m) => (m.handle as RouteHandle | undefined)?.hydrate === false)
  const { i18n } = useTranslation()
  useChangeLanguage(locale)
  return (
    <html
      lang={locale}
      dir={i18n.dir?.(locale) ?? 'ltr'}
      {...(hydrate ? { ...mantineHtmlProps, 'data-mantine-color-scheme': settings.theme } : {})}
      data-color-weak={hydrate && settings.colorWeak ? '' : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {hydrate ? (
          <link rel="stylesheet" href={consoleCss} />
        ) : publicCssText ? (
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: publicCssText }} />
        ) : (
          <link rel="stylesheet" href={publicCss} />
        )}
        <Links />
        {hydrate ? <ColorSchemeScript nonce={nonce} forceColorScheme={settings.theme} /> : null}
      </head>
      <body>
        {hydrate ? (
          <MantineProvider theme={themeFor(settings)} forceColorScheme={settings.theme}>
            <NavProgress />
            <SubmitPending />
            <NotificationsHost />
            <FlashToast toast={rootData?.toast ?? null} />
            <ConfirmLogout open={rootData?.confirmLogout ?? false} />
            <CatalogGate />
            {children}
            {/* After the page: the server has then seen every t() of the render. */}
            <CatalogList />
          </MantineProvider>
        ) : (
          children
        )}
        {hydrate ? <ScrollRestoration nonce={nonce} /> : null}
        {hydrate ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  )
}

export default function App() {
  // `<html data-hydrated>` once the page answers to JavaScript: for styles that need it, and for the
  // browser tests, which wait for it before using controls that only exist with JavaScript.
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
    // The same moment as a user timing, which Lighthouse reports (bench/lighthouse.mjs counts the scripts asked for before it).
    performance.mark('ps-hydrated')
  }, [])
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
