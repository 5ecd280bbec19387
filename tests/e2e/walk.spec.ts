// The walk of issue 13, kept: for each role (and both languages, see ROLES), every page of the side menu is reached through the menu itself, answers 200, shows its heading and
// title, shows no untranslated catalog key, does not overflow sideways at 1366 px and keeps the last
// column of its tables (their actions) in view. Also: the public links of a visitor, the menu on a
// phone, toasts beside the header, and the "Confirm logout" section readable at 390 and 1440 px.
import fs from 'node:fs'
import path from 'node:path'
import { createCookie } from '@remix-run/node'
import type { Locator, Page } from '@playwright/test'
import { menuForRole } from '../../contract/menu.ts'
import type { MenuItem } from '../../contract/menu.ts'
import { ADMIN, BASE_URL, DATA_DIR, DEMO_PASSWORD } from './env.ts'
import { expect, hydrated, jsDisabled, type Lng, login, test } from './fixtures.ts'

// ---- the catalogs, to translate labels and to recognise a key left on the page ------------------
type Catalog = Record<string, unknown>
const LOCALE_DIR = new URL('../../app/locales/', import.meta.url)
function loadCatalog(lng: Lng): Catalog {
  const dir = new URL(`${lng}/`, LOCALE_DIR)
  const out: Catalog = {}
  for (const file of fs.readdirSync(dir)) out[path.basename(file, '.json')] = JSON.parse(fs.readFileSync(new URL(file, dir), 'utf8'))
  return out
}
const CATALOGS = { 'zh-CN': loadCatalog('zh-CN'), 'en-US': loadCatalog('en-US') }
const NAMESPACES = new Set(Object.keys(CATALOGS['zh-CN']))
function tr(lng: Lng, key: string, values: Record<string, string> = {}): string {
  const v = key.split('.').reduce<unknown>((o, k) => (o as Catalog | undefined)?.[k], CATALOGS[lng])
  if (typeof v !== 'string') throw new Error(`no catalog text for ${key}`)
  return v.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')
}

/** Text on the page that looks like a catalog key (`menu.myShares`, `shares.list.edit`) of a known area. */
async function untranslatedKeys(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText()
  const found = text.match(/\b[a-z]+\.[a-zA-Z]+(\.[a-zA-Z]+)*\b/g) ?? []
  return [...new Set(found.filter((k) => NAMESPACES.has(k.split('.')[0]!)))]
}

async function expectNoSidewaysOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }))
  expect(scrollWidth, 'the page does not scroll sideways').toBeLessThanOrEqual(clientWidth)
}

/** The last column of every table (the actions, where there are any) lies inside the window (issue 13: cut off at 1366 px). */
async function expectLastColumnInView(page: Page) {
  const width = await page.evaluate(() => document.documentElement.clientWidth)
  for (const th of await page.locator('table thead tr > th:last-child').all()) {
    const box = await th.boundingBox()
    expect(box, 'the last column is laid out').toBeTruthy()
    expect(box!.x + box!.width, `the last column (${await th.innerText()}) ends inside the window`).toBeLessThanOrEqual(width + 1)
  }
}

/** The element drawn at the centre of `target` is `target` or inside it: nothing covers it. */
async function expectUncovered(target: Locator) {
  // Polled: a modal's overlay and content fade in, and for a moment the overlay is drawn over the text.
  await expect
    .poll(
      () =>
        target.evaluate((el) => {
          const r = el.getBoundingClientRect()
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
          return !(top && (top === el || el.contains(top)))
        }),
      { message: 'nothing is drawn over it' },
    )
    .toBe(false)
}

// ---- the roles --------------------------------------------------------------------------------
// The buyer and the seller share one menu (role user): the buyer's pages are walked in Chinese, the
// seller's in English, with JavaScript. The admin's menu holds every page: walked in Chinese with
// JavaScript, and in English without it — every page's server render as it is before any script runs
// (decision 108).
const ROLES = [
  { name: 'buyer', user: 'demo_buyer', password: DEMO_PASSWORD, role: 'user', lngs: ['zh-CN'] },
  { name: 'seller', user: 'demo_seller', password: DEMO_PASSWORD, role: 'user', lngs: ['en-US'] },
  { name: 'admin', user: ADMIN.username, password: ADMIN.password, role: 'admin', lngs: ['zh-CN', 'en-US'] },
] as const

type Entry = { item: MenuItem; group?: MenuItem }
const entries = (items: MenuItem[], group?: MenuItem): Entry[] =>
  items.flatMap((item) => (item.children?.length ? entries(item.children, item) : [{ item, group }]))

/** Where an entry lands (a redirecting entry ends on its first page) and the heading that page shows. */
function landing(lng: Lng, item: MenuItem, userName: string): { url: string; heading: string } {
  if (item.path === '/faq') return { url: '/faq/docs', heading: tr(lng, 'pages.faq.title') }
  if (item.path === '/dashboard/workplace') return { url: item.path, heading: tr(lng, 'pages.workplace.hello', { name: userName }) }
  return { url: item.path, heading: tr(lng, item.name) }
}

for (const role of ROLES) {
  for (const lng of role.lngs) {
    test.describe(`walk: ${role.name} (${lng})`, { tag: role.role === 'admin' && lng === 'en-US' ? ['@js-off-only'] : [] }, () => {
      test.use({ lng, viewport: { width: 1366, height: 800 } })

      test('every menu page is reached through the menu and is whole', async ({ page }) => {
        test.slow()
        await login(page, role.user, role.password)
        const nav = page.getByRole('navigation', { name: tr(lng, 'common.menu') })
        const site = tr(lng, 'common.siteName')
        // The customer-service entry is a redirect, to SUPPORT_URL (a new tab) or to My messages (this
        // tab, decision 156): walk-defects.spec.ts's.
        for (const { item, group } of entries(menuForRole(role.role)).filter((e) => e.item.path !== '/support')) {
          const label = tr(lng, item.name)
          await test.step(label, async () => {
            // Through the menu: open the entry's group (a <details>, so this works without JavaScript).
            if (group) {
              const details = nav.locator('details').filter({ has: page.locator('summary', { hasText: tr(lng, group.name) }) })
              if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click()
            }
            await nav.getByRole('link', { name: label, exact: true }).click()
            const { url, heading } = landing(lng, item, role.user)
            await expect(page).toHaveURL(url)
            await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
            await expect(page).toHaveTitle(`${label} - ${site}`)
            expect((await page.request.get(url)).status(), `${url} answers 200`).toBe(200)
            expect(await untranslatedKeys(page), 'no catalog key left untranslated').toEqual([])
            await expectNoSidewaysOverflow(page)
            await expectLastColumnInView(page)
          })
        }
      })
    })
  }
}

for (const lng of ['zh-CN', 'en-US'] as const) {
  test.describe(`walk: visitor (${lng})`, () => {
    test.use({ lng, viewport: { width: 1366, height: 800 } })

    test("the public pages' links lead to whole pages", async ({ page }) => {
      const links = [
        { name: tr(lng, 'auth.login'), url: '/login', heading: tr(lng, 'common.siteName') },
        { name: tr(lng, 'pages.agreement.userAgreement'), url: '/agreement/user-agreement', heading: tr(lng, 'pages.agreement.docs.userAgreement.title') },
        { name: tr(lng, 'pages.agreement.privacy'), url: '/agreement/user-privacy', heading: tr(lng, 'pages.agreement.docs.privacy.title') },
        { name: tr(lng, 'pages.agreement.exemption'), url: '/agreement/exemptionagree', heading: tr(lng, 'pages.agreement.docs.exemption.title') },
      ]
      for (const link of links) {
        await page.goto('/')
        await page.getByRole('link', { name: link.name, exact: true }).click()
        await expect(page).toHaveURL(link.url)
        await expect(page.getByRole('heading', { name: link.heading }).first()).toBeVisible()
        expect((await page.request.get(link.url)).status()).toBe(200)
        expect(await untranslatedKeys(page)).toEqual([])
        await expectNoSidewaysOverflow(page)
      }
    })
  })
}

test.describe('walk: on a phone (390 px)', { tag: '@js-off' }, () => {
  test.use({ lng: 'zh-CN', viewport: { width: 390, height: 800 } })

  test('the menu opens and leads to a page; the welcome toast leaves the header free', async ({ page }, testInfo) => {
    await login(page, 'demo_buyer', DEMO_PASSWORD)
    // The toast of the login sits below the header: the locale switch and logout stay usable.
    const toast = page.getByText('欢迎使用').first()
    await expect(toast).toBeVisible()
    expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(56)
    await expectUncovered(page.getByRole('button', { name: '退出登录' }))
    await expectUncovered(page.getByRole('button', { name: 'English' }))

    // Without JavaScript the burger is a link to the menu; with it, a button.
    // Exact: the skip link "跳到菜单" is a link too.
    const burger = jsDisabled(testInfo) ? page.getByRole('link', { name: '菜单', exact: true }) : page.getByRole('button', { name: '菜单', exact: true })
    await burger.click()
    const nav = page.getByRole('navigation', { name: '菜单' })
    await nav.locator('summary', { hasText: '个人中心' }).click()
    await nav.getByRole('link', { name: '我的订单', exact: true }).click()
    await expect(page).toHaveURL('/user/order-list')
    await expect(page.getByRole('heading', { level: 2, name: '我的订单' })).toBeVisible()
    await expectNoSidewaysOverflow(page)
  })
})

/** The flash cookie the console sets after a 500–504 answer (app/.server/toast.ts), signed like it. */
async function confirmLogoutFlash() {
  const { sessionSecret } = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'secrets.json'), 'utf8')) as { sessionSecret: string }
  const cookie = createCookie('ps_toast', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [sessionSecret], maxAge: 60 })
  const value = (await cookie.serialize({ confirmLogout: true })).split(';')[0]!.slice('ps_toast='.length)
  return { name: 'ps_toast', value, url: BASE_URL }
}

for (const width of [390, 1440]) {
  test.describe(`walk: "Confirm logout" at ${width} px`, { tag: width === 390 ? ['@js-off'] : [] }, () => {
    test.use({ lng: 'en-US', viewport: { width, height: 800 } })

    test('is whole and on top of the page, title, text and buttons', async ({ page, context }, testInfo) => {
      await login(page, 'demo_seller', DEMO_PASSWORD)
      await page.goto('/user/setting')
      // As after a failed form post (app/.server/forms.ts): the next page opens the dialog.
      await context.addCookies([await confirmLogoutFlash()])
      await page.reload()
      if (!jsDisabled(testInfo)) await hydrated(page)
      const dialog = page.getByRole('alertdialog', { name: 'Confirm logout' }).or(page.getByRole('dialog', { name: 'Confirm logout' }))
      await expect(dialog).toBeVisible()
      await expect(dialog).toBeInViewport({ ratio: 1 })
      for (const part of [
        dialog.getByText('Confirm logout', { exact: true }),
        dialog.getByText('You have been logged out, you can cancel to stay on this page, or log in again'),
        dialog.getByRole('button', { name: 'Re-Login' }),
      ]) {
        await expect(part).toBeVisible()
        await expectUncovered(part)
      }
      // Cancel stays on the page, without the dialog.
      await dialog.getByText('Cancel', { exact: true }).click()
      await expect(dialog).toBeHidden()
      await expect(page).toHaveURL('/user/setting')
    })
  })
}
