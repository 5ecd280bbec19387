// Issue 11, the console shell: the settings drawer (theme, layout, density, tab bar, server menu) with
// and without JavaScript, the locale switch, the menu and breadcrumbs on nested pages, /visualization.
import type { Page } from '@playwright/test'
import { ADMIN } from './env.ts'
import { expect, expectFlash, hydrated, jsDisabled, loginAs, setLocale, test } from './fixtures.ts'

test.use({ lng: 'en-US' })

/** Opens the settings: the drawer with JavaScript, the `?settings` panel without. */
async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  const form = page.getByRole('form', { name: 'Settings' })
  await expect(form).toBeVisible()
  // With JavaScript the drawer slides in from the right: its switches move until it has arrived.
  if (await page.locator('html[data-hydrated]').count()) await expect(page.getByRole('dialog')).toBeInViewport({ ratio: 1 })
}

/**
 * Changes settings as a user does: with JavaScript each change applies at once (and is stored); without
 * it the form is saved with its button and the page comes back with 'Save Success'.
 */
async function changeSettings(page: Page, js: boolean, change: (form: ReturnType<Page['getByRole']>) => Promise<void>) {
  // With JavaScript, the drawer as a user meets it once the page has loaded (before, the gear is the no-JS link).
  if (js) await hydrated(page)
  await openSettings(page)
  const form = page.getByRole('form', { name: 'Settings' })
  const stored = page.waitForResponse((r) => r.url().includes('/settings') && r.request().method() === 'POST')
  await change(form)
  if (!js) {
    await form.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, /^(Save Success|Menu loaded)$/)
  } else {
    await stored
    await page.keyboard.press('Escape')
  }
}

const setSwitch = (form: ReturnType<Page['getByRole']>, name: string, on: boolean) => form.getByRole('switch', { name }).setChecked(on, { force: true })

test.describe('console shell', () => {
  test('dark theme applies, persists in the cookie and is rendered by the server', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
    await changeSettings(page, js, (form) => form.getByRole('radio', { name: 'Dark' }).check({ force: true }))
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
    // The server's HTML already carries it: no flash of the light theme.
    const html = await (await context.request.get('/dashboard/workplace')).text()
    expect(html).toMatch(/<html[^>]*data-mantine-color-scheme="dark"/)
    await changeSettings(page, js, (form) => form.getByRole('radio', { name: 'Light' }).check({ force: true }))
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
  })

  test('the locale switch changes the console language and keeps it', async ({ page, context, api }) => {
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Workplace' })).toBeVisible()
    await page.getByRole('button', { name: '中文' }).click()
    await expect(page.getByRole('navigation', { name: '菜单' }).getByRole('link', { name: '工作台' })).toBeVisible()
    await expect(page).toHaveTitle(/工作台 - /)
    await page.reload()
    await expect(page.getByRole('navigation', { name: '菜单' }).getByRole('link', { name: '工作台' })).toBeVisible()
    await page.getByRole('button', { name: 'English' }).click()
    await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Workplace' })).toBeVisible()
  })

  test('tab bar: visited pages as tabs, close one, close others, hidden when off', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    await expect(page.getByTestId('tab-bar')).toHaveCount(0)
    await changeSettings(page, js, (form) => setSwitch(form, 'Tab bar', true))
    const bar = page.getByTestId('tab-bar')
    await expect(bar).toBeVisible()
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'FAQ' }).click()
    await expect(page).toHaveURL(/\/faq\/docs$/)
    await page.goto('/user/order-list')
    await expect(bar.getByRole('link', { name: 'My orders' })).toHaveAttribute('aria-current', 'page')
    await expect(bar.getByRole('link', { name: 'FAQ' })).toBeVisible()
    await expect(bar.getByRole('link', { name: 'Workplace' })).toBeVisible()
    // Close a tab that is not on screen: the page stays.
    await bar.getByRole('button', { name: 'Close FAQ' }).click()
    await expect(bar.getByRole('link', { name: 'FAQ' })).toHaveCount(0)
    await expect(page).toHaveURL(/\/user\/order-list$/)
    // Close the others.
    await bar.getByRole('button', { name: 'Close others' }).click()
    await expect(bar.getByRole('link', { name: 'Workplace' })).toHaveCount(0)
    await expect(bar.getByRole('link', { name: 'My orders' })).toBeVisible()
    // Kept across navigations (and reloads).
    await page.goto('/dashboard/workplace')
    await expect(bar.getByRole('link', { name: 'My orders' })).toBeVisible()
    await changeSettings(page, js, (form) => setSwitch(form, 'Tab bar', false))
    await expect(page.getByTestId('tab-bar')).toHaveCount(0)
  })

  test('menu from the server: loaded with a message, used by the menu and the guard, and off again', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    await changeSettings(page, js, (form) => setSwitch(form, 'Menu from the server', true))
    await expectFlash(page, 'Menu loaded')
    const menu = page.getByRole('navigation', { name: 'Menu' })
    await expect(menu.getByRole('link', { name: 'Visualization' })).toBeVisible()
    // A user's server menu has no System group: the guard keeps them out.
    await page.goto('/system/user-manage')
    await expect(page).toHaveURL(/\/dashboard\/workplace$/)
    await changeSettings(page, js, (form) => setSwitch(form, 'Menu from the server', false))
    await expect(menu.getByRole('link', { name: 'Visualization' })).toBeVisible()
  })

  test('table density applies to every list', async ({ page, context }, testInfo) => {
    const js = !jsDisabled(testInfo)
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/system/login-record')
    const cell = page.locator('table td').first()
    const padding = () => cell.evaluate((td) => parseFloat(getComputedStyle(td).paddingTop))
    await expect(cell).toBeVisible()
    await changeSettings(page, js, async (form) => void (await form.getByRole('combobox', { name: 'Table density' }).selectOption('large')))
    await expect.poll(padding).toBeGreaterThanOrEqual(14)
    await changeSettings(page, js, async (form) => void (await form.getByRole('combobox', { name: 'Table density' }).selectOption('mini')))
    await expect.poll(padding).toBeLessThanOrEqual(3)
    // Another list, same density, without anything on the page asking for it.
    await page.goto('/system/user-manage')
    await expect.poll(() => page.locator('table td').first().evaluate((td) => parseFloat(getComputedStyle(td).paddingTop))).toBeLessThanOrEqual(3)
  })

  test('layout modes: top menu, collapsed menu, hidden navbar and footer', async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    await loginAs(context, await api.createUser())
    await page.goto('/faq/docs')
    await changeSettings(page, js, (form) => setSwitch(form, 'Collapse menu', true))
    await expect(page.getByTestId('collapsed-menu')).toBeVisible()
    await changeSettings(page, js, async (form) => {
      await setSwitch(form, 'Collapse menu', false)
      await setSwitch(form, 'Menu at the top', true)
    })
    await expect(page.getByRole('banner').getByRole('navigation', { name: 'Menu at the top' })).toBeVisible()
    await changeSettings(page, js, async (form) => {
      await setSwitch(form, 'Menu at the top', false)
      await setSwitch(form, 'Footer', false)
    })
    await expect(page.getByRole('contentinfo')).toHaveCount(0)
    await changeSettings(page, js, (form) => setSwitch(form, 'Navigation bar', false))
    // (The drawer has a <header> of its own: the app's is the one with the site name.)
    await expect(page.getByRole('banner').filter({ hasText: 'PayShare' })).toHaveCount(0)
    // The settings stay reachable (a floating button) to turn it back on.
    await changeSettings(page, js, async (form) => {
      await setSwitch(form, 'Navigation bar', true)
      await setSwitch(form, 'Footer', true)
    })
    await expect(page.getByRole('banner').filter({ hasText: 'PayShare' })).toBeVisible()
  })

  test('nested pages highlight their menu entry; breadcrumbs; page titles; visualization', async ({ page, context, api }) => {
    await loginAs(context, await api.createUser())
    await page.goto('/share-manage/new')
    const menu = page.getByRole('navigation', { name: 'Menu' })
    await expect(menu.getByRole('link', { name: 'My shares' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByTestId('breadcrumbs')).toContainText('Shares')
    await expect(page.getByTestId('breadcrumbs')).toContainText('My shares')
    await menu.getByRole('link', { name: 'Visualization' }).click()
    await expect(page).toHaveTitle('Visualization - PayShare')
    await expect(page.getByRole('heading', { name: 'Visualization', level: 2 })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Shares by type' })).toContainText('Netdisk')
  })

  test('the settings JSON can be copied (a button with JavaScript, selectable text without)', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    await setLocale(context, 'en-US')
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    if (!jsDisabled(testInfo)) await hydrated(page)
    await openSettings(page)
    if (jsDisabled(testInfo)) {
      await expect(page.getByLabel('Settings (select and copy)')).toHaveValue(/"themeColor": "#165DFF"/)
    } else {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await page.getByRole('button', { name: 'Copy settings' }).click()
      await expectFlash(page, 'Copy succeeded...')
    }
  })

  test('a submit button shows the submission under way and cannot be pressed twice', async ({ page, context, api }, testInfo) => {
    test.skip(jsDisabled(testInfo), "without JavaScript the browser's own loading indicator shows it")
    await setLocale(context, 'en-US')
    await loginAs(context, await api.createUser())
    // The post is held back a moment, as on a slow phone network.
    await page.route(/\/user\/my-message/, async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1_500))
      await route.continue()
    })
    await page.goto('/user/my-message')
    await hydrated(page)
    const submit = page.getByRole('button', { name: 'Mark all read' })
    await submit.click()
    await expect(submit).toHaveAttribute('aria-busy', 'true')
    await expect(submit).toBeDisabled()
    await expectFlash(page, 'All marked as read.')
    await expect(submit).toBeEnabled()
    await expect(page.locator('[data-pending]')).toHaveCount(0)
  })
})
