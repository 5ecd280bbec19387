import crypto from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable, type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { createInstance, type i18n } from 'i18next'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { catalogEntries, recording } from './.server/catalog-entries.ts'
import { CatalogRecorder, type CatalogRecording } from './components/layout/catalogs.tsx'
import { NonceProvider } from './components/layout/nonce.tsx'
import { PublicCssProvider } from './components/layout/public-css.tsx'
import { getLocale } from './.server/i18n.ts'
import { rememberTranslations } from './.server/translations.ts'
import { i18nConfig, resources } from './i18n.ts'
// The visitor pages' small stylesheet, inlined in their HTML (decision 142): built by Vite like the linked one.
import publicCssText from './public.css?inline'

export const streamTimeout = 5_000

/**
 * One initialised i18next instance per locale, reused: the catalogs are static and an instance never
 * changes language, so per-request instances would only cost time on every render.
 */
const instances = new Map<string, Promise<i18n>>()
function i18nFor(locale: string): Promise<i18n> {
  let p = instances.get(locale)
  if (!p) {
    const instance = createInstance()
    p = instance
      .use(initReactI18next)
      .init({ ...i18nConfig, lng: locale, resources })
      .then(() => {
        memoizeLanguageCodes(instance)
        rememberTranslations(instance)
        return instance
      })
    instances.set(locale, p)
  }
  return p
}

/** CSP with a fresh nonce per response (DESIGN §6; research/INTEGRATIONS.md §5.1). */
function contentSecurityPolicy(nonce: string, dev: boolean) {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: http://localhost:*' : ''}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * i18next canonicalises the language code (Intl.getCanonicalLocales) on every t() call — 8% of a share
 * page render. Our codes are two fixed values, so the answers are remembered.
 */
function memoizeLanguageCodes(instance: i18n) {
  const utils = instance.services.languageUtils as unknown as Record<string, (code: string) => unknown>
  for (const name of ['formatLanguageCode', 'getLanguagePartFromCode', 'getScriptPartFromCode']) {
    const original = utils[name]
    if (typeof original !== 'function') continue
    const cache = new Map<string, unknown>()
    utils[name] = (code: string) => {
      if (!cache.has(code)) cache.set(code, original.call(utils, code))
      return cache.get(code)
    }
  }
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = crypto.randomBytes(16).toString('base64')
  const locale = await getLocale(request)
  const catalogs: CatalogRecording = { keys: new Set(), entries: (keys) => catalogEntries(resources[locale].translation, keys) }
  const instance = recording(await i18nFor(locale), catalogs.keys)

  const bot = isbot(request.headers.get('user-agent') ?? '')
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <PublicCssProvider value={publicCssText}>
          <CatalogRecorder.Provider value={catalogs}>
            <I18nextProvider i18n={instance}>
              <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
            </I18nextProvider>
          </CatalogRecorder.Provider>
        </PublicCssProvider>
      </NonceProvider>,
      {
        nonce,
        [bot ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development'))
          responseHeaders.set('X-Content-Type-Options', 'nosniff')
          responseHeaders.set('Referrer-Policy', 'same-origin')
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          // A page React finished needs no abort: the timer goes with it (it fired on every page, 6 s later).
          body.once('finish', () => clearTimeout(timer))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    const timer = setTimeout(abort, streamTimeout + 1000)
  })
}

// For web-server.mjs, which asks it before Remix handles a request: a write from another site is a 403.
// And past its capacity, the busy page in the visitor's language (503, Retry-After; decisions 141, 163).
export { busyPages, crossSiteRefusal } from './.server/request.ts'
export { localeOfCookies } from './.server/i18n.ts'
export { drainLiveStreams } from './.server/live-streams.ts'
