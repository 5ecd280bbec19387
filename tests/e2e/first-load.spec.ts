// Issue 24: the workplace, where the console lands after login, asks for at most 15 scripts before it
// has hydrated (it asked for 49 when Rollup made a chunk per set of routes sharing a module; the
// chunks are grouped by landing page now, decision 152). Counted as the bench counts them: a fresh
// browser context (empty cache), the scripts the page started to fetch before `<html data-hydrated>`.
import type { Page } from '@playwright/test'
import { BASE_URL } from './env.ts'
import { expect, hydrated, jsDisabled, loginAs, test, watchHydration } from './fixtures.ts'

const MAX_SCRIPTS_BEFORE_HYDRATION = 15

/** The scripts (`/assets/*.js`) the page started to fetch before it hydrated, by file name. */
async function scriptsBeforeHydration(page: Page, path: string) {
  const loads = await watchHydration(page)
  await page.goto(path)
  await hydrated(page)
  const { at, started } = await loads()
  return [...new Set(started.filter(([url, start]) => start < at && /\/assets\/[^/]+\.js$/.test(new URL(url).pathname)).map(([url]) => url.split('/').pop()!))]
}

test(`the workplace and /login ask for at most ${MAX_SCRIPTS_BEFORE_HYDRATION} scripts before they hydrate`, async ({ page, context, browser, api }) => {
  test.skip(jsDisabled(test.info()), 'scripts are the browser’s')
  const login = await scriptsBeforeHydration(page, '/login')
  expect(login.length, `/login: ${login.join(' ')}`).toBeLessThanOrEqual(MAX_SCRIPTS_BEFORE_HYDRATION)
  await loginAs(context, await api.createUser())
  // The workplace in a fresh context: nothing of /login's in the cache.
  const fresh = await browser.newContext({ baseURL: BASE_URL, storageState: await context.storageState() })
  try {
    const workplace = await scriptsBeforeHydration(await fresh.newPage(), '/dashboard/workplace')
    expect(workplace.length, `the workplace: ${workplace.join(' ')}`).toBeLessThanOrEqual(MAX_SCRIPTS_BEFORE_HYDRATION)
    // The page's own route module is among them: the count is of a page that hydrated as the workplace.
    expect(workplace.some((f) => /^route-/.test(f))).toBe(true)
  } finally {
    await fresh.close()
  }
})
