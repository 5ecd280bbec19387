// Issue 23: the defects the Chromium walk of the console found, each as the steps that showed it — with
// JavaScript, and without it where the page differs (`@js-off`).
import http from 'node:http'
import type { Page } from '@playwright/test'
import { authApi } from '#contract/auth.ts'
import { messagesApi, notificationsApi } from '#contract/messages.ts'
import { appealsApi } from '#contract/moderation.ts'
import { ordersApi } from '#contract/orders.ts'
import { sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { ADMIN, API_PORT, DATA_DIR, DEMO_PASSWORD, WEB_PORT } from './env.ts'
import { type Api, expect, expectFlash, hydrated, jsDisabled, loginAs, test, uniqueName, watchToasts } from './fixtures.ts'
import { startServer } from './second-server.ts'

test.use({ lng: 'en-US' })

const SELLER = 'demo_seller'

async function publishApproved(api: Api) {
  const seller = await api.login(SELLER, DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: {
      title: `Walk share ${Math.random().toString(36).slice(2, 7)}`,
      type: 'text',
      content: `secret-${Math.random().toString(36).slice(2)}`,
      price: 2.5,
      subscription_status: 'close',
    },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share
}

/** A new seller with a sale (¥28.50 income) and two pending withdrawals of it (¥10, ¥12). */
async function pendingWithdrawals(api: Api) {
  const seller = await api.createUser('phone', 'wd')
  const token = await api.login(seller.user_name, seller.password)
  await api.ok(usersApi.agreeToTerms, { token })
  await api.ok(usersApi.updateAlipayInfo, { token, body: { alipayRealName: '赵六', alipayAccount: seller.phone! } })
  const share = await api.ok(sharesApi.new, { token, body: { title: uniqueName('wd'), type: 'text', content: 'x', price: 30, subscription_status: 'close' } })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  const { payUrl } = await api.ok(ordersApi.create, { body: { unicode: share.unicode, paymentMethod: 'Alipay' } })
  expect(await api.payInSandbox(payUrl)).toBe(303)
  const ids: number[] = []
  for (const amount of [10, 12]) ids.push((await api.ok(withdrawalsApi.create, { token, body: { amount } })).id)
  return { seller, ids }
}

const menuWidth = async (page: Page) => Math.round((await page.locator('#app-menu').boundingBox())!.width)

/** Sets the drawer's menu width as a user does: typed, then (without JavaScript) saved. */
async function typeMenuWidth(page: Page, js: boolean, value: string) {
  if (js) await hydrated(page)
  await page.getByTestId('settings-button').click()
  const form = page.getByRole('form', { name: 'Settings' })
  await expect(form).toBeVisible()
  const field = form.getByLabel(/^Menu width/)
  if (js) {
    const stored = page.waitForResponse((r) => r.url().includes('/settings') && r.request().method() === 'POST')
    await field.fill(value)
    await stored
  } else {
    await field.fill(value)
    await form.getByRole('button', { name: 'Save' }).click()
  }
  return form
}

test.describe('walk defects: settings and layout', () => {
  test(
    'the menu width takes, stays through later saves, and a bad one is refused with a message',
    { tag: '@js-off' },
    async ({ page, context, api }, testInfo) => {
      const js = !jsDisabled(testInfo)
      await loginAs(context, await api.createUser())
      await page.goto('/dashboard/workplace')
      expect(await menuWidth(page)).toBe(220)
      await typeMenuWidth(page, js, '300')
      if (!js) await expectFlash(page, 'Save Success')
      await page.goto('/dashboard/workplace')
      expect(await menuWidth(page)).toBe(300)

      // A later save of something else keeps it (it sent the field's own text back).
      await typeMenuWidth(page, js, '310')
      await page.goto('/dashboard/workplace')
      expect(await menuWidth(page)).toBe(310)

      const refused = 'The menu width must be a whole number from 160 to 400 (pixels); nothing was changed.'
      for (const bad of js ? ['5000'] : ['abc', '5000']) {
        await page.goto('/dashboard/workplace')
        const form = await typeMenuWidth(page, js, bad)
        if (js) await expect(form.getByText(refused)).toBeVisible()
        else await expectFlash(page, refused)
        await expect(page.getByText('Save Success')).toHaveCount(0)
        await page.goto('/dashboard/workplace')
        expect(await menuWidth(page)).toBe(310)
      }
    },
  )

  test('on a phone the side menu goes away once an entry is chosen', async ({ page, context, api }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/workplace')
    await hydrated(page)
    const nav = page.getByRole('navigation', { name: 'Menu' })
    await expect(nav).not.toBeInViewport()
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(nav).toBeInViewport()
    await nav.locator('summary', { hasText: 'User center' }).click()
    await nav.getByRole('link', { name: 'My orders', exact: true }).click()
    await expect(page).toHaveURL('/user/order-list')
    await expect(nav).not.toBeInViewport()
    await expect(page.getByRole('heading', { level: 2, name: 'My orders' })).toBeInViewport()
  })

  test("a redirect's toast shows once (a non-admin sent away from an admin page)", async ({ page, context, api }) => {
    const mostToasts = await watchToasts(page)
    await loginAs(context, await api.createUser())
    await page.goto('/system/user-manage')
    await expect(page).toHaveURL('/dashboard/workplace')
    const text = 'Access to this resource on the server is denied.'
    const shown = () => mostToasts(text)
    await expect.poll(shown).toBe(1)
    // Once everything the page fetches after hydration (the rest of the catalogs) has arrived.
    await page.waitForLoadState('networkidle')
    expect(await shown()).toBe(1)
  })

  test('an unmatched URL keeps the header and menu for a logged-in user; exception pages have titles', async ({ page, context, api }) => {
    await loginAs(context, await api.createUser())
    const res = await page.goto('/no/such/page')
    expect(res!.status()).toBe(404)
    await expect(page.getByRole('navigation', { name: 'Menu' })).toBeAttached()
    await expect(page.getByTestId('current-user')).toBeAttached()
    await expect(page.getByText('Whoops, this page is gone.')).toBeVisible()
    await expect(page).toHaveTitle(/^Page not found - /)
    await page.goto('/exception/404')
    await expect(page).toHaveTitle(/^404 Page not found - /)
    await page.goto('/exception/500')
    await expect(page).toHaveTitle(/^500 Server error - /)
  })

  test(
    'customer service is in the menu and, with no SUPPORT_URL, leads to "Write to support" in the console, in the same tab',
    { tag: '@js-off' },
    async ({ page, context, api }, testInfo) => {
      await loginAs(context, await api.createUser())
      await page.goto('/dashboard/workplace')
      if (!jsDisabled(testInfo)) await hydrated(page)
      const nav = page.getByRole('navigation', { name: 'Menu' })
      const entry = nav.getByRole('link', { name: 'Customer service' })
      await expect(entry).toBeAttached()
      // A page of the console: no new tab (the walk found target=_blank; decision 156).
      await expect(entry).not.toHaveAttribute('target', /.*/)
      const tabs = context.pages().length
      await entry.click()
      await expect(page).toHaveURL('/user/my-message')
      expect(context.pages()).toHaveLength(tabs)
      await expect(page.getByLabel(/^Write to support/)).toBeVisible()
    },
  )

  test('a logged-in /support is the console\'s "Write to support", not "Not Found"', async ({ page, context, api }) => {
    await loginAs(context, await api.createUser())
    const res = await page.goto('/support')
    expect(res!.status()).toBe(200)
    await expect(page).toHaveURL('/user/my-message')
    await expect(page.getByLabel(/^Write to support/)).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Menu' })).toBeAttached()
    await expect(page.getByText('Not Found')).toHaveCount(0)
  })
})

for (const width of [320, 390]) {
  test.describe(`walk defects: /login at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } })

    test('the QQ and WeChat buttons are whole, their labels not cut', { tag: '@js-off' }, async ({ page }, testInfo) => {
      await page.goto('/login')
      if (!jsDisabled(testInfo)) await hydrated(page)
      for (const name of ['Log in with QQ', 'Log in with WeChat']) {
        const button = page.getByRole('button', { name, exact: true })
        await expect(button).toBeInViewport({ ratio: 1 })
        // The label is drawn whole: nothing of it hidden by the button's width (the walk saw "Log in w").
        const cut = await button.evaluate((b) => {
          const label = b.querySelector('.mantine-Button-label') ?? b
          return label.scrollWidth - label.clientWidth
        })
        expect(cut, `${name}: pixels of its label cut off`).toBeLessThanOrEqual(0)
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    })
  })
}

for (const width of [320, 360]) {
  test.describe(`walk defects: the header at ${width} px (zh-CN)`, () => {
    test.use({ lng: 'zh-CN', viewport: { width, height: 800 } })

    test('the brand, the locale switch, the icons and logout do not cover each other', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
      await loginAs(context, await api.createUser())
      await page.goto('/dashboard/workplace')
      if (!jsDisabled(testInfo)) await hydrated(page)
      const header = page.locator('header')
      const parts = [
        header.getByRole('heading', { level: 1 }).getByRole('link', { name: 'PayShare 付费分享' }),
        header.getByRole('button', { name: '中文' }),
        header.getByRole('button', { name: 'English' }),
        header.getByTestId('settings-button'),
        header.getByRole('button', { name: '退出登录' }),
      ]
      const boxes = []
      for (const part of parts) {
        await expect(part).toBeInViewport({ ratio: 1 })
        boxes.push((await part.boundingBox())!)
      }
      // The walk saw 中文/English and the icons drawn over "PayShare 付费分享": no two boxes overlap.
      for (let i = 0; i < boxes.length; i += 1)
        for (let j = i + 1; j < boxes.length; j += 1) {
          const [a, b] = [boxes[i]!, boxes[j]!]
          const overlap = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5
          expect(overlap, `header parts ${i} and ${j} overlap`).toBe(false)
        }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    })
  })
}

test.describe('walk defects: the admin queues at 320 px', () => {
  test.use({ viewport: { width: 320, height: 800 } })

  test("the withdrawal queue's actions stack and leave the row most of the screen", async ({ page, context, api }) => {
    const { seller } = await pendingWithdrawals(api)
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/withdrawal-manage?keyword=${seller.user_name}`)
    const actions = page.locator('td.ps-actions').first()
    await expect(actions.getByRole('link', { name: /^Mark as paid #/ })).toBeVisible()
    // Side by side, process and reject kept the column 190 px wide: 60 % of the screen, the user and the
    // amount hidden under it. Stacked, it is as wide as its widest button.
    expect((await actions.boundingBox())!.width).toBeLessThanOrEqual(320 * 0.45)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  })
})

test.describe('walk defects: the admin queues at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('the withdrawal and appeal queues fit the page: no column hidden under the sticky actions', async ({ page, context, api }) => {
    const { seller } = await pendingWithdrawals(api)
    // A pending appeal of this seller: a share taken down, appealed.
    const token = await api.login(seller.user_name, seller.password)
    const share = await api.ok(sharesApi.new, { token, body: { title: uniqueName('ap'), type: 'text', content: 'x', price: 3, subscription_status: 'close' } })
    await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
    await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'reported_invalid' } })
    await api.ok(appealsApi.create, { token, body: { unicode: share.unicode, description: 'Please look again.' } })
    await loginAs(context, ADMIN.username, ADMIN.password)
    // The walk found the withdrawal table 1,242 px wide in a 1,188 px box, the transfer numbers under
    // "Actions"; the appeals' actions were 277 px wide side by side.
    for (const path of [`/system/withdrawal-manage?keyword=${seller.user_name}`, '/system/withdrawal-manage', `/system/appeal-manage?unicode=${share.unicode}`]) {
      await page.goto(path)
      const fit = await page.locator('table:has(#list)').evaluate((t) => ({ table: t.getBoundingClientRect().width, box: t.parentElement!.clientWidth }))
      expect(fit.table, `${path}: the table is no wider than its box (${fit.box} px)`).toBeLessThanOrEqual(fit.box + 1)
    }
  })
})

test.describe('walk defects: phone-width lists (390 px)', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('the code outbox fits the screen with the code in view; list actions leave room for the titles', async ({ page, context, api }) => {
    await api.createUser()
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto('/system/outbox')
    const code = page.getByTestId('outbox-code').first()
    await expect(code).toBeInViewport()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    await context.clearCookies()
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto('/share-manage/search-table')
    const actions = page.locator('td.ps-actions').first()
    await expect(actions).toBeVisible()
    // The walk found it two thirds of the screen wide. Stacked, it is as wide as its widest button: 85 px
    // for the usual row, 194 px for a row whose share has a longer action (seen in CI, where other tests'
    // shares come first), so the bound is under 60 % of the screen, not a third.
    expect((await actions.boundingBox())!.width).toBeLessThanOrEqual(390 * 0.6)
  })
})

test.describe('walk defects: forms', () => {
  test('the new-share form reports every missing field at once', { tag: '@js-off' }, async ({ page }, testInfo) => {
    await loginAs(page.context(), SELLER, DEMO_PASSWORD)
    await page.goto('/share-manage/new')
    if (!jsDisabled(testInfo)) await hydrated(page)
    // As the walk did: a price typed first, then the form sent.
    await page.getByLabel(/^Price/).fill('abc')
    await page.getByRole('button', { name: 'Submit for review' }).click()
    await expect(page.getByText('Please enter a title.')).toBeVisible()
    await expect(page.getByText('Please enter the content.')).toBeVisible()
    await expect(page.getByText('Please enter a price.')).toBeVisible()
  })

  test('the login lock says when it ends', { tag: '@js-off' }, async ({ page, api }) => {
    const user = await api.createUser()
    for (let i = 0; i < 5; i += 1) await api.call(authApi.login, { body: { username: user.user_name, password: `${user.password}x` } })
    await page.goto('/login')
    await page.getByLabel(/^User name, email or phone/).fill(user.user_name)
    await page.getByLabel(/^Password/).fill(user.password)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Too many failed logins.' })).toHaveText(/^Too many failed logins\. Try again in 1[0-5] min\.$/)
  })

  test('a refused withdrawal amount previews nothing', { tag: '@js-off' }, async ({ page }, testInfo) => {
    await loginAs(page.context(), SELLER, DEMO_PASSWORD)
    await page.goto('/dashboard/withdrawal')
    const amount = page.getByLabel('Amount (yuan)')
    if (!jsDisabled(testInfo)) await hydrated(page)
    for (const [typed, refusal] of [
      ['989999.01', 'The amount is more than your withdrawable income.'],
      ['4.9', 'The amount is below the minimum withdrawal.'],
    ] as const) {
      await amount.fill(typed)
      if (jsDisabled(testInfo)) await page.getByRole('button', { name: 'Preview', exact: true }).click()
      await expect(page.getByText(refusal).first()).toBeVisible()
      await expect(page.getByTestId('preview-previewActual')).toHaveCount(0)
    }
    await amount.fill('20')
    if (jsDisabled(testInfo)) await page.getByRole('button', { name: 'Preview', exact: true }).click()
    await expect(page.getByTestId('preview-previewActual')).toBeVisible()
  })
})

test.describe('walk defects: messages and purchases', () => {
  test('system notifications show their label colour as colour, not as a word', async ({ page, context, api }) => {
    const title = `Walk notice ${Math.random().toString(36).slice(2, 7)}`
    await api.ok(notificationsApi.adminCreate, { token: await api.adminToken(), body: { title, content: 'Hello', priority: 1, label_color: 'orangered' } })
    await loginAs(context, await api.createUser())
    await page.goto('/user/my-message?tab=notifications')
    const notice = page.getByTestId('notification').filter({ hasText: title })
    await expect(notice).toBeVisible()
    await expect(notice).not.toContainText(/orange/i)
    await expect(notice).toHaveAttribute('data-label-color', 'orangered')

    // The admin's list names the colour beside a swatch, in the catalog's case.
    await context.clearCookies({ name: 'ps_session' })
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto('/system/notification-list')
    const row = page.getByTestId('notification-row').filter({ hasText: title })
    await expect(row.getByText('Orange-red', { exact: true })).toBeVisible()
    await expect(row.getByText('Orange-red', { exact: true })).toHaveCSS('text-transform', 'none')
  })

  test('the WeChat waiting page does not reload itself; "I have paid" moves on', { tag: '@js-off-only' }, async ({ page, api, context }) => {
    const share = await publishApproved(api)
    await page.goto(`/share/${share.unicode}`)
    await page.getByLabel('WeChat Pay').check()
    await page.getByRole('button', { name: /Buy for/ }).click()
    await expect(page.getByRole('heading', { name: 'Scan with WeChat to pay' })).toBeVisible()
    // The page's own HTML (the test browser reads a <noscript> as text, as a text browser would not).
    expect(await (await context.request.get(page.url())).text()).not.toMatch(/http-equiv="refresh"/i)
    // Paid on the phone (here: the checkout page in another tab), then the buyer says so.
    const checkout = await context.newPage()
    await checkout.goto((await page.getByRole('link', { name: 'Open the payment page' }).getAttribute('href'))!)
    await checkout.getByRole('button', { name: /Pay/ }).click()
    await checkout.close()
    await page.getByRole('link', { name: 'I have paid — check now' }).click()
    await expect(page.getByText('Payment confirmed. Here is your content:')).toBeVisible()
  })
})

/**
 * A console of this run's build in front of the run's API, through a relay that answers one endpoint
 * with a 500 (the API's own envelope): a server failure on demand, as a user meets it.
 */
async function consoleWithFailing(port: number, relayPort: number, failing: string) {
  const relay = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === failing) {
      req.resume()
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 500, msg: 'errors.internal', data: null }))
      return
    }
    const upstream = http.request({ host: '127.0.0.1', port: API_PORT, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', () => resolve()))
  const web = await startServer(
    process.execPath,
    ['web-server.mjs'],
    { PORT: String(port), HOST: '127.0.0.1', API_URL: `http://127.0.0.1:${relayPort}`, DATA_DIR, NODE_ENV: 'production', WEB_CONCURRENCY: '1' },
    port,
  )
  return {
    stop() {
      web.kill('SIGTERM')
      relay.close()
    },
  }
}

test.describe('walk defects: a row action answered 500', () => {
  test(
    'a queue batch keeps the page, the ticks and the typed reason, and opens "Confirm logout" there',
    { tag: '@js-off' },
    async ({ page, context, api }, testInfo) => {
      const js = !jsDisabled(testInfo)
      const { seller, ids } = await pendingWithdrawals(api)

      // Ports of their own per project, beside the other tests' second servers.
      const offset = 520 + (js ? 0 : 1)
      const failing = await consoleWithFailing(WEB_PORT + offset, API_PORT + offset, withdrawalsApi.adminBatchReject.path)
      try {
        await loginAs(context, ADMIN.username, ADMIN.password)
        const url = `http://localhost:${WEB_PORT + offset}/system/withdrawal-manage?keyword=${seller.user_name}`
        await page.goto(url)
        if (js) await hydrated(page)
        for (const id of ids) await page.getByRole('checkbox', { name: `Select #${id} ${seller.user_name}` }).check()
        const reason = page.getByLabel('Reason (shown to the seller)', { exact: true })
        await reason.fill('The Alipay name does not match the account')
        await page.getByRole('button', { name: /^Reject selected/ }).click()

        const dialog = page.getByRole('alertdialog', { name: 'Confirm logout' }).or(page.getByRole('dialog', { name: 'Confirm logout' }))
        await expect(dialog).toBeVisible()
        await expect(dialog.getByText('You have been logged out, you can cancel to stay on this page, or log in again')).toBeVisible()
        await expect(page.getByRole('alert').filter({ hasText: 'Internal server error' })).toBeVisible()
        // The page stayed: what was typed and ticked is still there (it was rendered afresh, empty).
        await expect(page).toHaveURL(url)
        await expect(reason).toHaveValue('The Alipay name does not match the account')
        for (const id of ids) await expect(page.getByRole('checkbox', { name: `Select #${id} ${seller.user_name}` })).toBeChecked()
        if (js) {
          await dialog.getByRole('button', { name: 'Cancel' }).click()
          await expect(dialog).toBeHidden()
          await expect(reason).toHaveValue('The Alipay name does not match the account')
        }
        const listed = await api.ok(withdrawalsApi.adminList, { token: await api.adminToken(), query: { keyword: seller.user_name } })
        expect(listed.list.filter((w) => ids.includes(w.id)).map((w) => w.status)).toEqual(['Pending', 'Pending'])
      } finally {
        failing.stop()
      }
    },
  )
})

test.describe('walk defects: a form answered 500', () => {
  test('the new-share form keeps what was typed and opens "Confirm logout" on the form', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    const offset = 522 + (js ? 0 : 1)
    const failing = await consoleWithFailing(WEB_PORT + offset, API_PORT + offset, sharesApi.new.path)
    try {
      await loginAs(context, SELLER, DEMO_PASSWORD)
      const title = uniqueName('kept')
      await page.goto(`http://localhost:${WEB_PORT + offset}/share-manage/new`)
      if (js) await hydrated(page)
      await page.getByLabel(/^Title/).fill(title)
      await page.getByLabel(/^Content/).fill('The secret typed before the server failed')
      await page.getByLabel(/^Price/).fill('3.5')
      await page.getByRole('button', { name: 'Submit for review' }).click()

      const dialog = page.getByRole('alertdialog', { name: 'Confirm logout' }).or(page.getByRole('dialog', { name: 'Confirm logout' }))
      await expect(dialog).toBeVisible()
      await expect(page.getByRole('alert').filter({ hasText: 'Internal server error' })).toBeVisible()
      await expect(page.getByLabel(/^Title/)).toHaveValue(title)
      await expect(page.getByLabel(/^Content/)).toHaveValue('The secret typed before the server failed')
      await expect(page.getByLabel(/^Price/)).toHaveValue('3.5')
      const mine = await api.ok(sharesApi.list, { token: await api.login(SELLER, DEMO_PASSWORD), query: { title } })
      expect(mine.total).toBe(0)
    } finally {
      failing.stop()
    }
  })
})

test.describe('walk defects: a message form answered 500', () => {
  test('"Write to support" keeps the typed message and opens "Confirm logout" on the page', { tag: '@js-off' }, async ({ page, context, api }, testInfo) => {
    const js = !jsDisabled(testInfo)
    const offset = 524 + (js ? 0 : 1)
    const failing = await consoleWithFailing(WEB_PORT + offset, API_PORT + offset, messagesApi.send.path)
    try {
      const user = await api.createUser('email', 'kept')
      await loginAs(context, user)
      const url = `http://localhost:${WEB_PORT + offset}/user/my-message`
      await page.goto(url)
      if (js) await hydrated(page)
      const text = 'My order never arrived, please check it'
      await page.getByLabel('Write to support').fill(text)
      await page.getByRole('button', { name: 'Send', exact: true }).click()

      const dialog = page.getByRole('alertdialog', { name: 'Confirm logout' }).or(page.getByRole('dialog', { name: 'Confirm logout' }))
      await expect(dialog).toBeVisible()
      await expect(page.getByText('Internal server error').first()).toBeVisible()
      await expect(page).toHaveURL(url)
      await expect(page.getByLabel('Write to support')).toHaveValue(text)
      const mine = await api.ok(messagesApi.list, { token: await api.login(user.user_name, user.password), query: {} })
      expect(mine.list).toEqual([])
    } finally {
      failing.stop()
    }
  })
})
