// Issue 23: the server HTML of every route, for a visitor, a user and an admin, as a browser without
// JavaScript or CSS gets it: html-validate (`recommended`) finds no error but the rules decision 122
// names; every page has exactly one <h1>, a skip link as its first stop and a `#main` to skip to; every
// icon has a size of its own (width and height attributes); signed-in pages are never cached; and a
// list's pager at its ends is text, not a link. The pages are read with JavaScript off (the server's
// HTML as it is), so this runs in the JS-off project only.
import type { Page } from '@playwright/test'
import { sharesApi } from '#contract/shares.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { HtmlValidate, type Message } from 'html-validate'
import { menuForRole, type MenuItem } from '../../contract/menu.ts'
import { ADMIN, BASE_URL, DEMO_PASSWORD } from './env.ts'
import { type Api, expect, loginAs, test } from './fixtures.ts'

/**
 * Decision 122: html-validate's `recommended` preset, less the rules that judge how the markup is spelled
 * rather than whether it conforms — React's server renderer writes `charSet`, `<input/>` and
 * `disabled=""`, Mantine writes `style=""` and repeats a class — and with HTML's own rule for ids
 * (React's `useId` gives `:R1:`), and with a queue's tick boxes sharing their name.
 */
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: {
    'attr-case': 'off',
    'void-style': 'off',
    'attribute-boolean-style': 'off',
    'attribute-empty-style': 'off',
    'no-inline-style': 'off',
    'no-dup-class': 'off',
    'valid-id': ['error', { relaxed: true }],
    // A queue's tick boxes share one name (`ids`): HTML's way to post several values of one field.
    'form-dup-name': ['error', { shared: ['radio', 'checkbox', 'button', 'reset', 'submit'] }],
  },
})

/** Decision 122: Mantine writes its CSS variables and responsive style props as `<style>` where the component is. */
const excepted = (m: Message) => m.ruleId === 'element-permitted-content' && m.message.startsWith('<style> element')

async function conformanceErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html)
  return report.results
    .flatMap((r) => r.messages)
    .filter((m) => !excepted(m))
    .map((m) => `${m.ruleId}: ${m.message} (${m.selector ?? `line ${m.line}`})`)
}

/** What a text browser or a keyboard meets first, and the other page-wide promises, from the DOM. */
async function pageShape(page: Page) {
  return page.evaluate(() => {
    const stops = [...document.body.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')]
    const first = stops[0] as HTMLAnchorElement | undefined
    return {
      h1: [...document.querySelectorAll('h1')].map((h) => h.textContent?.trim() ?? ''),
      firstStop: first ? `${first.tagName.toLowerCase()} ${first.getAttribute('href') ?? ''} ${first.textContent?.trim()}` : 'none',
      hasMain: document.getElementById('main') !== null,
      skipLinks: [...document.querySelectorAll('a.ps-skip-link')].map((a) => `${a.textContent} → ${a.getAttribute('href')}`),
      unsizedIcons: [...document.querySelectorAll('svg')]
        .filter((s) => !s.hasAttribute('width') || !s.hasAttribute('height'))
        .map((s) => s.outerHTML.slice(0, 120)),
      pagerLinks: [...document.querySelectorAll('a[href*="pageNum="]')].map((a) => a.getAttribute('href') ?? ''),
      // A row's actions as a text browser reads them: neighbouring controls with no text between them run
      // together ("标记已付驳回"); a visually hidden " | " (TextSep) keeps them apart.
      runTogether: [...document.querySelectorAll('td.ps-actions')].flatMap((cell) => {
        const controls = [...cell.querySelectorAll('a[href], button')]
        return controls.slice(1).flatMap((b, i) => {
          const a = controls[i]!
          const between = document.createRange()
          between.setStartAfter(a)
          between.setEndBefore(b)
          return between.toString().trim() ? [] : [`${a.textContent?.trim()}${b.textContent?.trim()}`]
        })
      }),
    }
  })
}

type Checked = { path: string; signedIn: boolean; emptyLists?: boolean }

async function checkPage(page: Page, { path, signedIn, emptyLists }: Checked) {
  await test.step(path, async () => {
    const res = await page.goto(path)
    expect(res, `${path} answers`).toBeTruthy()
    expect(res!.status(), `${path} answers 200`).toBe(200)
    expect(await conformanceErrors(await res!.text()), `html-validate on ${path}`).toEqual([])
    const shape = await pageShape(page)
    expect(shape.h1, `one <h1> on ${path}`).toHaveLength(1)
    expect(shape.h1[0], `the <h1> of ${path} says something`).not.toBe('')
    expect(shape.firstStop, `the first stop of ${path} is the skip link`).toMatch(/^a #main /)
    expect(shape.hasMain, `${path} has the skip link's target`).toBe(true)
    // Translated (a catalog key would read `common.skipToMenu`), and each leads somewhere on the page.
    for (const link of shape.skipLinks) expect(link, `a skip link on ${path}`).toMatch(/^[^.]+ → #[\w-]+$/)
    expect(await page.evaluate(() => [...document.querySelectorAll('a.ps-skip-link')].every((a) => document.getElementById(a.getAttribute('href')!.slice(1)))), `the skip links of ${path} lead somewhere`).toBe(true)
    expect(shape.unsizedIcons, `icons without a width and height on ${path}`).toEqual([])
    expect(
      shape.pagerLinks.filter((h) => /[?&]pageNum=0(&|$)/.test(h)),
      `no link to page 0 on ${path}`,
    ).toEqual([])
    // A fresh user's lists are all one (empty) page: there is no page before or after to link to.
    if (emptyLists) expect(shape.pagerLinks, `no pager links on the one-page lists of ${path}`).toEqual([])
    expect(shape.runTogether, `row actions that run together in text on ${path}`).toEqual([])
    if (signedIn) expect(res!.headers()['cache-control'], `${path} is not cached`).toBe('private, no-store')
  })
}

const menuPages = (items: MenuItem[]): string[] => items.flatMap((i) => (i.children?.length ? menuPages(i.children) : [i.path])).filter((p) => p !== '/support')

/** An approved share of the demo seller, for the share pages. */
async function sharedCode(api: Api): Promise<string> {
  const seller = await api.login('demo_seller', DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: `conformance ${Math.random().toString(36).slice(2, 7)}`, type: 'text', content: 'secret', price: 3, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share.unicode
}

test.describe('server HTML of every route', { tag: '@js-off-only' }, () => {
  for (const lng of ['zh-CN', 'en-US'] as const) {
    test.describe(lng, () => {
      test.use({ lng })
      test("a visitor's pages", async ({ page, api }) => {
        const code = await sharedCode(api)
        const paths = [
          '/',
          '/login',
          '/login?tab=register',
          '/login?tab=forgot',
          '/agreement/user-agreement',
          '/agreement/user-privacy',
          '/agreement/exemptionagree',
          `/share/${code}`,
          `/share/${code}/report`,
        ]
        for (const path of paths) await checkPage(page, { path, signedIn: false })
        // The QQ and WeChat login pages (a login's start: their buttons).
        for (const path of ['/login/qq', '/login/wechat']) await checkPage(page, { path, signedIn: false })
        // The payment pages: WeChat Pay's QR code for the share, and the same order on the general `/pay/{orderNo}`.
        await page.goto(`/share/${code}`)
        await page.locator('input[name=paymentMethod][value=WeChat]').check()
        await page.locator('form:has(input[name=paymentMethod]) button[type=submit]').click()
        await expect(page).toHaveURL(new RegExp(`/share/${code}/pay\\?order=PS\\d{26}$`))
        const orderNo = new URL(page.url()).searchParams.get('order')!
        await checkPage(page, { path: `/share/${code}/pay?order=${orderNo}`, signedIn: false })
        await checkPage(page, { path: `/pay/${orderNo}`, signedIn: false })
        // The after-sales chat of a bought share (another one: the first waits for its WeChat payment in this
        // browser), before it is opened, and open with a message.
        const bought = await sharedCode(api)
        await page.goto(`/share/${bought}`)
        await page.locator('form:has(input[name=paymentMethod]) button[type=submit]').click()
        await page.locator('button[value=pay]').click()
        await expect(page.locator('#secret-content')).toHaveText('secret')
        await checkPage(page, { path: `/share/${bought}/chat`, signedIn: false })
        await page.locator('button[value=open]').click()
        await page.locator('#chat-content').fill('See https://example.com/proof')
        await page.locator('button[value=send]').click()
        await expect(page.getByTestId('chat-line')).toHaveCount(1)
        await checkPage(page, { path: `/share/${bought}/chat`, signedIn: false })
        // The share page is titled with the share's title, and the login tabs with their own names.
        await page.goto(`/share/${code}`)
        await expect(page).toHaveTitle(new RegExp(`^conformance \\w+ - ${code}$`))
        await page.goto('/login?tab=register')
        await expect(page).toHaveTitle(lng === 'zh-CN' ? '注册 - PayShare 付费分享' : 'Register - PayShare')
        await page.goto('/login?tab=forgot')
        await expect(page).toHaveTitle(lng === 'zh-CN' ? '忘记密码 - PayShare 付费分享' : 'Forgot password - PayShare')
      })
    })
  }

  test("a new user's pages: every menu page and the settings pages", async ({ page, api, context }) => {
    test.slow()
    await loginAs(context, await api.createUser())
    const extra = [
      '/share-manage/new',
      '/user/setting/profile',
      '/user/setting/password',
      '/user/setting/email',
      '/user/setting/phone',
      '/user/setting/alipay',
      '/user/setting/terms',
      '/exception/404',
    ]
    for (const path of [...menuPages(menuForRole('user')), ...extra]) await checkPage(page, { path, signedIn: true, emptyLists: true })
  })

  test("the seller's and the admin's pages, with the demo data", async ({ page, context, api }) => {
    test.slow()
    // A pending withdrawal, so that the admin's queue shows a row's decisions (mark paid, reject).
    await api.ok(withdrawalsApi.create, { token: await api.login('demo_seller', DEMO_PASSWORD), body: { amount: 10 } })
    await loginAs(context, 'demo_seller', DEMO_PASSWORD)
    for (const path of ['/dashboard/workplace', '/dashboard/withdrawal', '/share-manage/search-table', '/share-manage/order-list'])
      await checkPage(page, { path, signedIn: true })
    await context.clearCookies()
    await loginAs(context, ADMIN.username, ADMIN.password)
    for (const path of menuPages(menuForRole('admin'))) await checkPage(page, { path, signedIn: true })
  })

  // The settings drawer's other layouts (SPEC §3 app settings, kept in the `ps_settings` cookie): the side
  // menu collapsed to its icons, and the menu across the header (topMenu).
  for (const [layout, settings] of [
    ['the collapsed menu', { menuCollapse: true }],
    ['the top menu', { topMenu: true }],
  ] as const) {
    test(`the admin's pages with ${layout}`, async ({ page, context }) => {
      await context.addCookies([{ name: 'ps_settings', value: encodeURIComponent(Buffer.from(JSON.stringify(settings), 'utf8').toString('base64')), url: BASE_URL }])
      await loginAs(context, ADMIN.username, ADMIN.password)
      for (const path of ['/dashboard/workplace', '/system/share-manage', '/system/withdrawal-manage', '/user/setting/profile']) await checkPage(page, { path, signedIn: true })
      // The layout took: the menu's squares, or the menu in the header.
      const menu = 'menuCollapse' in settings ? page.locator('.ps-collapsed-entry') : page.locator('header nav')
      await expect(menu.first()).toBeAttached()
    })
  }
})
