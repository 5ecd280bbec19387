// Fixtures of the e2e suite: an API client (admin login, the code outbox, users made through the real
// sign-up calls), the shared data factories, login by cookie or through the UI, and a per-test client
// address and locale.
import { type BrowserContext, test as base, expect, type Locator, type Page } from '@playwright/test'
import { Api, type TestUser } from './api.ts'
import { BASE_URL } from './env.ts'

export { expect }
export * from './api.ts'
export type Lng = 'zh-CN' | 'en-US'

// ---- locale ------------------------------------------------------------------------------------
/** The `ps_lng` cookie as Remix writes it: base64 of the JSON value (STACK.md), URI-encoded. */
export function localeCookie(lng: Lng) {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(lng), 'utf8').toString('base64'))
  return { name: 'ps_lng', value, url: BASE_URL }
}
export async function setLocale(context: BrowserContext, lng: Lng) {
  await context.addCookies([localeCookie(lng)])
}

// ---- page helpers ------------------------------------------------------------------------------
/** Labels of the login form in both languages, so `login()` works whatever the locale. */
const LOGIN = { username: /^(用户名、邮箱或手机号|User name, email or phone)/, password: /^(密码|Password)/, submit: /^(登录|Log in)$/ }

/**
 * Logs in without the form, for tests that only need a session: posts what the login form posts through
 * the context's request client, which shares the browser context's cookies, so the session cookie is in
 * place for the next page. Where the test is about the login form itself, use `login()`.
 */
export async function loginAs(context: BrowserContext, user: string | TestUser, password?: string) {
  const name = typeof user === 'string' ? user : user.user_name
  const pw = password ?? (typeof user === 'string' ? undefined : user.password)
  if (!pw) throw new Error('loginAs() needs a password')
  const res = await context.request.post(`${BASE_URL}/login`, {
    form: { username: name, password: pw, intent: 'login' },
    headers: { origin: BASE_URL },
    maxRedirects: 0,
  })
  if (res.status() !== 302) throw new Error(`login as ${name}: ${res.status()} ${(await res.text()).slice(0, 300)}`)
  expect((await context.cookies(BASE_URL)).some((c) => c.name === 'ps_session' && c.value), 'a session cookie after login').toBe(true)
  // The welcome toast belongs to the page the form lands on; kept, it would pop up on the test's first page.
  await context.clearCookies({ name: 'ps_toast' })
}

/** Logs in through the login form and waits for the landing page (the workplace unless told). */
export async function login(
  page: Page,
  user: string | TestUser,
  password?: string,
  opts: { path?: string | null; expectUrl?: string | RegExp } = {},
) {
  const name = typeof user === 'string' ? user : user.user_name
  const pw = password ?? (typeof user === 'string' ? undefined : user.password)
  if (!pw) throw new Error('login() needs a password')
  // `path: null`: the page is already on the login form.
  if (opts.path !== null) await page.goto(opts.path ?? '/login')
  await page.getByLabel(LOGIN.username).fill(name)
  await page.getByLabel(LOGIN.password).fill(pw)
  await page.getByRole('button', { name: LOGIN.submit }).click()
  await expect(page).toHaveURL(opts.expectUrl ?? /\/dashboard\/workplace$/)
}

/** Waits until React has hydrated the page (`<html data-hydrated>`); only with JavaScript. */
export async function hydrated(page: Page, timeout?: number) {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout })
}

/**
 * A flash message (SPEC §8): a Mantine notification with JavaScript, page text without. Right after a
 * full page load both may exist for a moment, hence `first()`.
 */
export async function expectFlash(page: Page, text: string | RegExp) {
  await expect(page.getByText(text).first()).toBeVisible()
}

/**
 * A field shows this validation message: it is marked invalid and its aria-describedby points first at
 * an element with exactly this text (so the message is tied to the field, not just somewhere on the page).
 */
export async function expectFieldError(field: Locator, text: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  const describedBy = (await field.getAttribute('aria-describedby')) ?? ''
  const errorId = describedBy.split(/\s+/).find((id) => id.endsWith('-error'))
  expect(errorId, 'aria-describedby names an error element').toBeTruthy()
  await expect(field.page().locator(`[id="${errorId}"]`)).toHaveText(text)
}

// ---- the test object ---------------------------------------------------------------------------
const randomByte = () => Math.floor(Math.random() * 256)
const ipBase = `10.${randomByte()}.${randomByte()}`

type Fixtures = {
  /** Uncaught errors in the page (a failed hydration shows up here): any one fails the test. */
  pageErrors: Error[]
  /** The console language for this test (the `ps_lng` cookie); unset means the default, zh-CN. */
  lng: Lng | undefined
  /** This test's client address, sent as X-Forwarded-For by the browser and the API client. */
  clientIp: string
  api: Api
}

let ipSeq = 0
export const test = base.extend<Fixtures>({
  lng: [undefined, { option: true }],
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = []
      page.on('pageerror', (e) => errors.push(e))
      await use(errors)
      expect(errors.map((e) => e.message), 'uncaught errors in the page').toEqual([])
    },
    { auto: true },
  ],
  clientIp: async ({}, use) => {
    ipSeq += 1
    await use(`${ipBase}.${ipSeq % 256}`)
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientIp }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientIp })
  },
  page: async ({ page, javaScriptEnabled }, use) => {
    await use(javaScriptEnabled === false ? page : waitingForHydration(page))
  },
  context: async ({ context, lng }, use) => {
    if (lng) await setLocale(context, lng)
    await use(context)
  },
  api: async ({ clientIp }, use) => {
    await use(new Api(clientIp))
  },
})

/**
 * With JavaScript, a full page load (`page.goto`) returns once React has hydrated the page. A click in
 * the moment React replaces the server's HTML with its own lands on a node that is gone and is lost: a
 * confirm dialog's Cancel (a section of the page before hydration, a modal after) did nothing and the
 * test waited 20 s for the dialog to close (CI, 27 Nov). What is typed before hydration is lost the same
 * way: a controlled field is drawn again with its initial value (an admin page's form filled at once, CI
 * 28 Nov). A person waits for the page; a test should not depend on the timing.
 */
function waitingForHydration(page: Page): Page {
  const goto = page.goto.bind(page)
  page.goto = async (url, options) => {
    const response = await goto(url, options)
    // Pages served without scripts (the share page for a visitor, decision 099) never hydrate.
    const hydrates = response?.headers()['content-type']?.startsWith('text/html') && (await page.locator('script[type="module"]').count()) > 0
    // A busy machine can take long (CI, 29 Nov: a Save click after `goto` did nothing, no trace); past
    // 30 s the test goes on, and the log says so.
    if (hydrates) await hydrated(page, 30_000).catch(() => console.warn(`[e2e] ${page.url()}: not hydrated 30 s after its load; the test goes on`))
    return response
  }
  return page
}

/**
 * A page of another browser context (the test's second party: an admin beside a seller), whose `goto`
 * waits for hydration as the test's own page does. `js`: whether that context runs JavaScript.
 */
export async function openPage(context: BrowserContext, js: boolean): Promise<Page> {
  const page = await context.newPage()
  return js ? waitingForHydration(page) : page
}

/** True in the project that runs without JavaScript. */
export const jsDisabled = (testInfo: { project: { use: { javaScriptEnabled?: boolean } } }) => testInfo.project.use.javaScriptEnabled === false

/**
 * Counts toast cards from now on: the returned function gives the most cards of one text (a substring)
 * on screen at once over the whole visit (they leave after 5 s). Issue 23: a toast that came with a
 * redirect showed twice with JavaScript.
 */
export async function watchToasts(page: Page): Promise<(text: string) => Promise<number>> {
  await page.addInitScript(() => {
    const most = new Map<string, number>()
    ;(window as unknown as { mostToasts: (text: string) => number }).mostToasts = (text) =>
      Math.max(0, ...[...most].filter(([k]) => k.includes(text)).map(([, n]) => n))
    new MutationObserver(() => {
      const now = new Map<string, number>()
      for (const card of document.querySelectorAll('.mantine-Notification-root')) now.set(card.textContent ?? '', (now.get(card.textContent ?? '') ?? 0) + 1)
      for (const [text, n] of now) most.set(text, Math.max(n, most.get(text) ?? 0))
    }).observe(document, { childList: true, subtree: true })
  })
  return (text) => page.evaluate((t) => (window as unknown as { mostToasts: (text: string) => number }).mostToasts(t), text)
}

/**
 * Notes when `<html data-hydrated>` appears, on the page's clock; the returned function gives that time
 * and the start time of every resource the page fetched (a script asked for before it came first).
 */
export async function watchHydration(page: Page): Promise<() => Promise<{ at: number; started: (readonly [string, number])[] }>> {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.documentElement?.hasAttribute('data-hydrated')) return
      ;(window as unknown as { hydratedAt: number }).hydratedAt = performance.now()
      observer.disconnect()
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] })
  })
  return () =>
    page.evaluate(() => ({
      at: (window as unknown as { hydratedAt: number }).hydratedAt,
      started: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime] as const),
    }))
}
