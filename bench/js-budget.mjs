// Issue 11 JS budget: the console JavaScript a first visit of a page downloads before the page answers
// to it, in gzip bytes, measured in a browser (decision 100): a fresh browser context (empty cache)
// opens the page and every script response is counted until React has hydrated it
// (`<html data-hydrated>`). What the page fetches after that — the other catalogs, a chart, the
// validators on the first focus — is printed beside it as "deferred" (for 3 s after hydration).
// `npm run bench` runs it against the console it started; alone:
//   node bench/js-budget.mjs http://127.0.0.1:3000 <admin user> <password>
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { chromiumPath } from '../scripts/chromium-path.mjs'

const BUDGET_KB = 170
const DEFERRED_MS = 3000

/** In the page: when `<html data-hydrated>` appeared, on the page's own clock (performance.now()). */
function noteHydration() {
  new MutationObserver((_, observer) => {
    if (!document.documentElement?.hasAttribute('data-hydrated')) return
    window.__psHydratedAt = performance.now()
    observer.disconnect()
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] })
}

async function firstLoad(browser, url, cookies) {
  const context = await browser.newContext()
  if (cookies) await context.addCookies(cookies)
  await context.addInitScript(noteHydration)
  const page = await context.newPage()
  const bodies = new Map()
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return
    const body = await res.body().catch(() => null)
    if (body) bodies.set(res.url(), gzipSync(body).length)
  })
  await page.goto(url)
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
  await page.waitForTimeout(DEFERRED_MS)
  // Before or after hydration by when the browser asked for the script, not when the answer reached us.
  const { hydratedAt, started } = await page.evaluate(() => ({
    hydratedAt: window.__psHydratedAt,
    started: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]),
  }))
  await context.close()
  const startedAt = new Map(started)
  return [...bodies].map(([url, gz]) => ({ url, gz, before: (startedAt.get(url) ?? Infinity) < hydratedAt }))
}

/** The session cookies of a user logged in through the login form (a Playwright browser). */
export async function loginCookies(browser, base, user, password) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${base}/login`)
  await page.locator('#login-form input[name="username"]').fill(user)
  await page.locator('#login-form input[name="password"]').fill(password)
  await Promise.all([page.waitForURL(/\/dashboard\//), page.locator('#login-form button[type="submit"]').click()])
  const cookies = await context.cookies()
  await context.close()
  return cookies.filter((c) => c.name !== 'ps_toast')
}

/** The two pages of the budget: `/login`, and `/dashboard/workplace` logged in. */
export async function jsBudget({ base, user, password }) {
  const browser = await chromium.launch({ executablePath: chromiumPath() })
  try {
    const pages = { '/login': await firstLoad(browser, `${base}/login`) }
    pages['/dashboard/workplace'] = await firstLoad(browser, `${base}/dashboard/workplace`, await loginCookies(browser, base, user, password))
    const result = {}
    for (const [page, scripts] of Object.entries(pages)) {
      const before = scripts.filter((s) => s.before)
      const kb = (list) => list.reduce((sum, s) => sum + s.gz, 0) / 1024
      const biggest = [...before].sort((a, b) => b.gz - a.gz).slice(0, 4).map((s) => `${s.url.split('/').pop()} ${(s.gz / 1024).toFixed(1)}`)
      result[page] = { kb: kb(before), files: before.length, deferredKb: kb(scripts.filter((s) => !s.before)), deferredFiles: scripts.length - before.length, biggest }
    }
    return { budgetKb: BUDGET_KB, pages: result }
  } finally {
    await browser.close()
  }
}

/** Lines for `npm run bench`. */
export async function jsBudgetLines(options) {
  const { budgetKb, pages } = await jsBudget(options)
  return Object.entries(pages).map(
    ([page, r]) =>
      `  ${page.padEnd(22)} ${r.kb.toFixed(1)} KB gzip JS in ${r.files} files until hydrated (budget ≤ ${budgetKb}: ${r.kb <= budgetKb ? 'ok' : 'OVER'}); ` +
      `then ${r.deferredKb.toFixed(1)} KB in ${r.deferredFiles} files deferred; biggest: ${r.biggest.join(', ')}`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = 'http://127.0.0.1:3000', user = 'admin', password = process.env.ADMIN_PASSWORD ?? ''] = process.argv.slice(2)
  console.log((await jsBudgetLines({ base, user, password })).join('\n'))
}
