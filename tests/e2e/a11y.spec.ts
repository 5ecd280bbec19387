// Issue 11 accessibility: axe-core finds no serious or critical violation on the login page, a share
// page, the workplace, a list page and an admin page, in the light and the dark theme. axe runs as a
// script in the page, so only in the JS-on project (on the server's HTML, once hydrated).
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { sharesApi } from '#contract/shares.ts'
import { ADMIN, BASE_URL, DEMO_PASSWORD } from './env.ts'
import { type Api, expect, hydrated, loginAs, test } from './fixtures.ts'

const settingsCookie = (theme: 'light' | 'dark') => ({
  name: 'ps_settings',
  value: encodeURIComponent(Buffer.from(JSON.stringify({ theme }), 'utf8').toString('base64')),
  url: BASE_URL,
})

async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).analyze()
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const node = (n: (typeof serious)[number]['nodes'][number]) => {
    const c = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined
    return n.target.join(' ') + (c?.fgColor ? ` (${c.fgColor} on ${c.bgColor}: ${c.contrastRatio})` : '')
  }
  const report = serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map(node).slice(0, 3).join(' | ')}`)
  expect(report, `serious/critical axe violations on ${what}`).toEqual([])
}

/** An approved share of the demo seller (the seed's), published for this test. */
async function sharedCode(api: Api): Promise<string> {
  const seller = await api.login('demo_seller', DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: `a11y ${Math.random().toString(36).slice(2, 7)}`, type: 'text', content: 'secret', price: 3, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share.unicode
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, 'axe runs as a script in the page; the JS-on run checks the same server HTML once hydrated')
    test.beforeEach(async ({ context }) => {
      await context.addCookies([settingsCookie(theme)])
    })

    test('login and share pages', async ({ page, api }) => {
      await page.goto('/login')
      await expect(page.getByRole('button', { name: /^(登录|Log in)$/ })).toBeVisible()
      await expectNoSeriousViolations(page, '/login')
      await page.goto(`/share/${await sharedCode(api)}`)
      await expectNoSeriousViolations(page, '/share/:unicode')
    })

    test('workplace and a list page', async ({ page, context, api }) => {
      await loginAs(context, await api.createUser())
      await page.goto('/dashboard/workplace')
      await expect(page.getByRole('main')).toBeVisible()
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme)
      await expectNoSeriousViolations(page, '/dashboard/workplace')
      await page.goto('/share-manage/search-table')
      await expectNoSeriousViolations(page, '/share-manage/search-table')
    })

    test('an admin page, and the settings drawer', async ({ page, context }) => {
      await loginAs(context, ADMIN.username, ADMIN.password)
      await page.goto('/system/user-manage')
      await expect(page.locator('table')).toBeVisible()
      await expectNoSeriousViolations(page, '/system/user-manage')
      await page.getByTestId('settings-button').click()
      await expect(page.getByRole('form', { name: /^(页面配置|Settings)$/ })).toBeVisible()
      // The drawer slides and fades in: axe measured mid-fade sees its text half transparent (a contrast
      // "violation" now and then). Measured once it is fully opaque and nothing on the page still moves.
      await expect(page.getByRole('dialog')).toHaveCSS('opacity', '1')
      await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length)).toBe(0)
      await expectNoSeriousViolations(page, 'the settings drawer')
    })
  })
}

test('the settings drawer traps focus and closes with Escape', async ({ page, context, api }, testInfo) => {
  test.skip(testInfo.project.use.javaScriptEnabled === false, 'a modal drawer exists with JavaScript; without, the settings are a panel of the page')
  await context.addCookies([settingsCookie('light')])
  await loginAs(context, await api.createUser())
  await page.goto('/dashboard/workplace')
  await hydrated(page)
  const button = page.getByTestId('settings-button')
  await button.focus()
  await page.keyboard.press('Enter')
  const drawer = page.getByRole('dialog')
  await expect(drawer).toBeVisible()
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab')
    expect(await drawer.evaluate((d) => d.contains(document.activeElement)), 'focus stays in the drawer').toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
})

// The drawer mounts closed on its first use and opens on the next render, so it records the button.
test('the settings drawer gives focus back to its button', async ({ page, context, api }, testInfo) => {
  test.skip(testInfo.project.use.javaScriptEnabled === false, 'a modal drawer exists with JavaScript; without, the settings are a panel of the page')
  await loginAs(context, await api.createUser())
  await page.goto('/dashboard/workplace')
  await hydrated(page)
  const button = page.getByTestId('settings-button')
  await button.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(button).toBeFocused()
})
