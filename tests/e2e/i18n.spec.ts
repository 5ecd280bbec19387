// SPEC §9 locales: zh-CN by default, the header switch (a plain form, so it works without JS), the
// <html lang> attribute, and English for any other stored choice.
import { expect, hydrated, jsDisabled, loginAs, test, watchHydration } from './fixtures.ts'

test('the login page switches zh-CN → English → zh-CN and keeps the tab', { tag: '@js-off' }, async ({ page }) => {
  await page.goto('/login?tab=forgot')
  const html = page.locator('html')
  await expect(html).toHaveAttribute('lang', 'zh-CN')
  // Each tab is titled by its own name (issue 23: this one said "登录").
  await expect(page).toHaveTitle('忘记密码 - PayShare 付费分享')
  await expect(page.getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('button', { name: '重置密码' })).toBeVisible()

  await page.getByRole('button', { name: 'English' }).click()
  await expect(html).toHaveAttribute('lang', 'en-US')
  await expect(page).toHaveURL('/login?tab=forgot')
  await expect(page).toHaveTitle('Forgot password - PayShare')
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('tab', { name: 'Forgot password' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('button', { name: 'Reset password' })).toBeVisible()
  await expect(page.getByRole('button', { name: '重置密码' })).toHaveCount(0)

  // The choice is remembered on the next page.
  await page.getByRole('tab', { name: 'Login' }).click()
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible()
  await page.goto('/agreement/user-agreement')
  await expect(html).toHaveAttribute('lang', 'en-US')
  await expect(page.getByRole('heading', { name: 'User agreement', level: 1 })).toBeVisible()

  await page.getByRole('button', { name: '中文' }).click()
  await expect(html).toHaveAttribute('lang', 'zh-CN')
  await expect(page).toHaveURL('/agreement/user-agreement')
  await expect(page).toHaveTitle('用户协议 - PayShare 付费分享')
})

test('the header switch works inside the console and the menu follows', async ({ page, context, api }) => {
  const user = await api.createUser('email', 'lng')
  await loginAs(context, user)
  await page.goto('/user/setting')
  const nav = page.getByRole('navigation', { name: '菜单' })
  await expect(nav.getByRole('link', { name: '用户设置' })).toBeVisible()

  await page.getByRole('button', { name: 'English' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US')
  await expect(page).toHaveURL('/user/setting')
  await expect(page.getByRole('heading', { name: 'User settings', level: 2 })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'User settings' })).toBeVisible()
  await expect(page).toHaveTitle('User settings - PayShare')

  await page.goto('/dashboard/workplace')
  await expect(page.getByRole('heading', { name: `Hello, ${user.user_name}` })).toBeVisible()
  await page.getByRole('button', { name: '中文' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN')
  await expect(page.getByRole('heading', { name: `您好，${user.user_name}` })).toBeVisible()
})

test('any other stored language means English (SPEC §9)', async ({ page }) => {
  await page.goto('/login')
  // The switch's own form, posted with a value it never offers.
  const res = await page.request.post('/locale', { form: { locale: 'fr-FR', redirectTo: '/login' } })
  expect(res.ok()).toBe(true)
  await page.goto('/login')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US')
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible()
})

// Decision 100: a page hydrates with the texts its server render used (written into the page) and the
// catalogs every page needs; the whole catalogs follow, and a navigation made at once waits for them.
test('the whole catalogs come after hydration; a page reached at once shows texts, not keys', async ({ page, context, api }) => {
  test.skip(jsDisabled(test.info()), 'catalogs are the browser\'s')
  await loginAs(context, await api.createUser())
  // When <html data-hydrated> appeared, on the page's clock: a script asked for before it came first.
  const loads = await watchHydration(page)
  const catalogsOf = async () => {
    const { at, started } = await loads()
    const named = started.flatMap(([url, start]) => {
      const name = /\/assets\/(\w+)-[\w-]+\.js$/.exec(url)?.[1]
      return name ? [{ name, afterHydration: start >= at }] : []
    })
    return named.filter((c) => ['auth', 'common', 'errors', 'validation', 'shares', 'menu', 'statistics', 'withdrawals'].includes(c.name))
  }
  await page.goto('/dashboard/workplace')
  await hydrated(page)
  await expect(page.locator('#ps-catalogs')).toBeAttached()
  const written = JSON.parse((await page.locator('#ps-catalogs').textContent()) ?? '{}')
  expect(written.menu.dashboard).toBe('仪表盘')
  expect(written).not.toHaveProperty('statistics')
  // Straight away, through the menu, to a page whose texts the workplace did not use.
  await page.getByRole('navigation', { name: '菜单' }).getByRole('link', { name: '提现' }).click()
  await expect(page).toHaveURL('/dashboard/withdrawal')
  await expect(page.getByRole('heading', { name: '提现', level: 2 })).toBeVisible()
  await expect(page.locator('main')).not.toContainText('withdrawals.')
  const catalogs = await catalogsOf()
  const before = catalogs.filter((c) => !c.afterHydration).map((c) => c.name)
  expect(before).not.toContain('withdrawals')
  expect(before).not.toContain('statistics')
  // A catalog no component chunk is named after: it came with the whole catalogs, after hydration.
  expect(catalogs.filter((c) => c.afterHydration).map((c) => c.name)).toContain('statistics')
})
