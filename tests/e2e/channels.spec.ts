// Fee channels (issue 7; SPEC §3 Channel): an admin creates one on /system/channel-manage, a seller finds
// it on /dashboard/makemoney, opens it through the sandbox gateway and sees it open with its rate; a
// seller below the minimum income is refused with the reason; a disabled channel is no longer offered.
// Every test is a form journey: JavaScript on and off (`@js-off`).
import type { Page } from '@playwright/test'
import { channelsApi } from '#contract/channels.ts'
import { lastMonth } from '#server/modules/channels/rules.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, expectFieldError, expectFlash, jsDisabled, loginAs, openPage, test, uniqueName } from './fixtures.ts'

async function createChannel(api: Api, over: Partial<{ name: string; price: number; fee_rate: number; minimum_income: number; service_duration: number }> = {}) {
  return api.ok(channelsApi.adminCreate, {
    token: await api.adminToken(),
    body: { name: uniqueName('E2E channel'), price: 2.5, fee_rate: 1.5, minimum_income: 0, service_duration: 7, ...over },
  })
}

/** A channel's card on the make-money page (a section named by the channel). */
const card = (page: Page, name: string) => page.getByRole('region', { name })
/** A URL-driven dialog: a modal with JavaScript, a page section without. */
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name })

test.describe('fee channels (zh-CN)', { tag: '@js-off' }, () => {
  test('an admin creates a channel; a seller opens it through the sandbox and sees it open with its rate', async ({ page, context, api }) => {
    const name = uniqueName('E2E 渠道')
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/system/channel-manage')
    await expect(page.getByRole('heading', { name: '渠道管理', level: 2 })).toBeVisible()
    await page.getByRole('link', { name: '新建渠道' }).click()
    const form = dialog(page, '新建渠道')
    await expect(form).toBeVisible()
    // A refused form keeps the dialog open with a message at each wrong field.
    await form.getByLabel('名称').fill(name)
    await form.getByLabel('价格（元）').fill('0')
    await form.getByLabel('费率（%）').fill('3.555')
    await form.getByLabel('最低月收入（元）').fill('0')
    await form.getByLabel('服务时长（天）').fill('0')
    await form.getByRole('button', { name: '创建' }).click()
    await expectFieldError(form.getByLabel('价格（元）'), '价格须在 ¥0.01 到 ¥100,000 之间。')
    await expectFieldError(form.getByLabel('费率（%）'), '最多两位小数。')
    await expectFieldError(form.getByLabel('服务时长（天）'), '时长须在 1 到 3650 天之间。')
    await form.getByLabel('价格（元）').fill('3.30')
    await form.getByLabel('费率（%）').fill('1.75')
    await form.getByLabel('服务时长（天）').fill('15')
    await form.getByRole('button', { name: '创建' }).click()
    await expectFlash(page, '渠道已创建。')
    const row = page.getByRole('row').filter({ hasText: name })
    await expect(row).toContainText('¥3.30')
    await expect(row).toContainText('1.75%')
    await expect(row).toContainText('15 天')
    await expect(row).toContainText('启用')

    // A new seller, on the make-money page.
    const seller = await api.createUser('email', 'chseller')
    await context.clearCookies()
    await loginAs(context, seller)
    await page.goto('/dashboard/makemoney')
    await expect(page.getByRole('heading', { name: '如何赚钱', level: 2 })).toBeVisible()
    // The configured numbers (the e2e server runs with the defaults but for the settlement delay).
    await expect(page.getByText('未开通费率渠道时，每笔销售收取 5%。')).toBeVisible()
    // The e2e server settles at once (SETTLEMENT_DELAY_HOURS=0, tests/e2e/env.ts), and says so.
    await expect(page.getByText('买家支付后收入立即可提现，不设待结算期。')).toBeVisible()
    await expect(page.getByText('提现到您的支付宝账户，最低 ¥10.00；服务费为金额的 1%，最低 ¥0.10。')).toBeVisible()
    await expect(page.getByTestId('current-fee-rate')).toHaveText('5%')
    const offer = card(page, name)
    await expect(offer).toContainText('1.75%')
    await expect(offer).toContainText('¥3.30')
    await expect(offer).toContainText('15 天')
    await offer.getByLabel('支付宝').check()
    await offer.getByRole('button', { name: `开通 ¥3.30 ${name}` }).click()

    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await expect(page.getByText('¥3.30')).toBeVisible()
    await page.getByRole('button', { name: /Pay/ }).click()

    await expect(page).toHaveURL(/\/dashboard\/makemoney\?order=PS\d{26}$/)
    await expect(page.getByRole('status').filter({ hasText: `支付成功：${name} 已开通，至` })).toBeVisible()
    await expect(page.getByTestId('current-fee-rate')).toHaveText('1.75%')
    await expect(page.getByTestId('open-channels')).toContainText(name)
    await expect(card(page, name)).toContainText('已开通，至')
    await expect(card(page, name).getByRole('button', { name: `续费 ¥3.30 ${name}` })).toBeVisible()

    // The order is in the seller's own orders as a fee-channel order, without a share code.
    await page.goto('/user/order-list')
    const order = page.getByRole('row').filter({ hasText: name })
    await expect(order).toContainText('费率渠道')
    await expect(order).toContainText('已完成')
  })

  test('WeChat: the QR page waits for the payment, then returns to the make-money page', async ({ page, context, api }, testInfo) => {
    const channel = await createChannel(api, { price: 1.2 })
    const seller = await api.createUser('email', 'chwx')
    await loginAs(context, seller)
    await page.goto('/dashboard/makemoney')
    const offer = card(page, channel.name)
    await offer.getByLabel('微信支付').check()
    await offer.getByRole('button', { name: `开通 ¥1.20 ${channel.name}` }).click()
    await expect(page).toHaveURL(/\/pay\/PS\d{26}$/)
    await expect(page.getByRole('heading', { name: '请使用微信扫码支付' })).toBeVisible()
    await expect(page.getByText(channel.name)).toBeVisible()
    await expect(page.getByText('¥1.20')).toBeVisible()
    await expect(page.getByRole('img', { name: '支付二维码' })).toBeVisible()
    // The sandbox's page stands in for the phone: paying there, the waiting page moves on by itself with
    // JavaScript; without it the payer says so (the page no longer reloads itself, decision 129).
    const orderNo = page.url().split('/pay/')[1]!
    const checkout = await page.getByRole('link', { name: '打开支付页面' }).getAttribute('href')
    const form = new URLSearchParams(new URL(checkout!).search)
    form.set('action', 'pay')
    const paid = await page.request.post(`${new URL(checkout!).origin}/api/payments/sandbox/checkout`, { form: Object.fromEntries(form), maxRedirects: 0 })
    expect(paid.status()).toBe(303)
    if (jsDisabled(testInfo)) await page.getByRole('link', { name: '我已支付，立即检查' }).click()
    await expect(page).toHaveURL(`/dashboard/makemoney?order=${orderNo}`)
    await expect(page.getByRole('status').filter({ hasText: `支付成功：${channel.name} 已开通` })).toBeVisible()
    await expect(page.getByTestId('current-fee-rate')).toHaveText('1.5%')
  })

  test('a seller below the minimum income is refused with the reason', async ({ page, context, api }) => {
    const channel = await createChannel(api, { minimum_income: 800, fee_rate: 0.5 })
    const seller = await api.createUser('email', 'chpoor')
    await loginAs(context, seller)
    await page.goto('/dashboard/makemoney')
    const offer = card(page, channel.name)
    await expect(offer).toContainText('需要上月收入 ¥800.00；您的：¥0.00。')
    await offer.getByRole('button', { name: `开通 ¥2.50 ${channel.name}` }).click()
    const month = lastMonth(new Date()).month
    await expect(card(page, channel.name).getByRole('alert')).toHaveText(`开通该渠道需要上月收入达到 ¥800.00，您 ${month} 的收入为 ¥0.00。`)
    await expect(page).toHaveURL('/dashboard/makemoney')
    await expect(page.getByTestId('current-fee-rate')).toHaveText('5%')
  })
})

test.describe('fee channels (en-US)', { tag: '@js-off' }, () => {
  test.use({ lng: 'en-US' })

  test('an admin edits and disables a channel; it is no longer offered', async ({ page, context, browser, api }, testInfo) => {
    const channel = await createChannel(api, { fee_rate: 2 })
    const seller = await api.createUser('email', 'choff')
    const sellerContext = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false, extraHTTPHeaders: { 'x-forwarded-for': api.clientIp } })
    await sellerContext.addCookies((await context.cookies()).filter((c) => c.name === 'ps_lng'))
    await loginAs(sellerContext, seller)
    const sellerPage = await openPage(sellerContext, testInfo.project.use.javaScriptEnabled !== false)
    await sellerPage.goto('/dashboard/makemoney')
    await expect(card(sellerPage, channel.name)).toContainText('2 %')

    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/channel-manage?keyword=${encodeURIComponent(channel.name)}`)
    await expect(page.getByRole('heading', { name: 'Channels', level: 2 })).toBeVisible()
    await page.getByRole('link', { name: `Edit ${channel.name}` }).click()
    const form = dialog(page, 'Edit channel')
    await expect(form.getByLabel('Fee rate (%)')).toHaveValue('2')
    await form.getByLabel('Fee rate (%)').fill('0.75')
    await form.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, 'Channel saved.')
    await expect(page.getByRole('row').filter({ hasText: channel.name })).toContainText('0.75 %')
    await sellerPage.reload()
    await expect(card(sellerPage, channel.name)).toContainText('0.75 %')

    await page.getByRole('button', { name: `Disable ${channel.name}` }).click()
    await expectFlash(page, 'Channel disabled.')
    const row = page.getByRole('row').filter({ hasText: channel.name })
    await expect(row).toContainText('Disabled')
    await expect(row.getByRole('button', { name: `Enable ${channel.name}` })).toBeVisible()

    await sellerPage.reload()
    await expect(sellerPage.getByRole('heading', { name: 'Make money', level: 2 })).toBeVisible()
    await expect(card(sellerPage, channel.name)).toHaveCount(0)
    await sellerContext.close()
  })
})
