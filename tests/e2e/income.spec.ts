// Issue 7: the seller's income on /dashboard/workplace — the five SPEC §3 figures in CNY, the 30-day
// series (a chart with JavaScript, always the table of the same numbers), recent orders and quick
// links — and a sale made in the sandbox showing up there. The e2e server settles income at once
// (tests/e2e/env.ts): the seeded history of demo_seller has income still unsettled; a sale's unsettled
// period is proven with a moved clock in server/src/modules/income/income.test.ts. Pages without forms:
// JavaScript on only (decision 108).
import type { Page } from '@playwright/test'
import { sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { DEMO_PASSWORD, SETTLEMENT_DELAY_HOURS } from './env.ts'
import { type Api, expect, jsDisabled, loginAs, test, uniqueName } from './fixtures.ts'

/** The value shown under a dashboard figure's label (`<dt>` label, `<dd>` value). */
const figure = (page: Page, label: string) => page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]')
const YUAN = /^-?¥\d+\.\d{2}$/

test.describe('the workplace of demo_seller (zh-CN)', () => {
  test('shows the five figures, the 30-day table (and the chart with JavaScript), recent orders and quick links', async ({ page, context }, testInfo) => {
    await loginAs(context, 'demo_seller', DEMO_PASSWORD)
    await page.goto('/dashboard/workplace')
    await expect(page.getByRole('heading', { level: 2, name: '您好，demo_seller' })).toBeVisible()
    for (const label of ['当前可提现', '本月收入', '今日收入', '待结算收入', '累计收入']) {
      await expect(figure(page, label)).toHaveText(YUAN)
    }
    // The seeded history: 60 days of sales, so the total is well above zero; its last sale (two hours
    // before the start, settling after 24 h) is still unsettled.
    const yuan = async (label: string) => Number((await figure(page, label).innerText()).replace(/[¥,]/g, ''))
    expect(await yuan('累计收入')).toBeGreaterThan(100)
    expect(await yuan('待结算收入')).toBeGreaterThan(0)

    const daily = page.getByRole('region', { name: '近 30 天收入' })
    const table = daily.getByRole('table')
    await expect(table.getByRole('columnheader')).toHaveText(['日期', '收入', '订单数'])
    await expect(table.getByRole('row')).toHaveCount(31)
    await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(/^\d{4}-\d{2}-\d{2}$/)
    // The chart is drawn in the browser only; the table reads the same without JavaScript.
    await expect(daily.locator('.recharts-surface')).toHaveCount(jsDisabled(testInfo) ? 0 : 1)

    const recent = page.getByRole('region', { name: '最近订单' })
    await expect(recent.getByRole('row')).toHaveCount(6)
    await expect(recent.getByRole('link', { name: '查看全部订单' })).toHaveAttribute('href', '/share-manage/order-list')
    const links = page.getByRole('navigation', { name: '快捷入口' })
    await expect(links.getByRole('link', { name: '发布分享' })).toHaveAttribute('href', '/share-manage/new')
    await expect(links.getByRole('link', { name: '申请提现' })).toHaveAttribute('href', '/dashboard/withdrawal')
    // demo_seller finished getting started: one line, no checklist.
    await expect(page.getByText('新手指引: 已全部完成')).toBeVisible()
    await expect(page.getByRole('listitem').filter({ hasText: '绑定安全手机' })).toHaveCount(0)
  })
})

/** A new seller who may publish (phone bound at sign-up, terms agreed) and an approved share of theirs. */
async function freshSellerWithShare(api: Api, price: number) {
  const seller = await api.createUser('phone', 'inc')
  const token = await api.login(seller.user_name, seller.password)
  await api.ok(usersApi.agreeToTerms, { token })
  const share = await api.ok(sharesApi.new, {
    token,
    body: { title: uniqueName('income'), type: 'text', content: 'income secret', price, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return { seller, share }
}

test.describe('a sale of a fresh seller (en-US)', () => {
  test.use({ lng: 'en-US' })

  test('a visitor buys in the sandbox; the seller sees the income, settled at once in the e2e server', async ({ page, context, api }) => {
    const { seller, share } = await freshSellerWithShare(api, 12.34)

    await page.goto(`/share/${share.unicode}`)
    await page.getByLabel('Alipay').check()
    await page.getByRole('button', { name: /Buy for ¥12\.34/ }).click()
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.getByText('Payment confirmed. Here is your content:')).toBeVisible()
    const paidAt = Date.now()

    await loginAs(context, seller)
    await page.goto('/dashboard/workplace')
    // 12.34 less the 5% fee (0.62): 11.72, withdrawable at once (SETTLEMENT_DELAY_HOURS=0).
    expect(SETTLEMENT_DELAY_HOURS).toBe(0)
    await expect(figure(page, 'Withdrawable now')).toHaveText('¥11.72')
    await expect(figure(page, 'This month')).toHaveText('¥11.72')
    await expect(figure(page, 'Today')).toHaveText('¥11.72')
    await expect(figure(page, 'Unsettled')).toHaveText('¥0.00')
    await expect(figure(page, 'Total income')).toHaveText('¥11.72')
    await expect(page.getByRole('alert').filter({ hasText: 'withdrawals are blocked' })).toHaveCount(0)

    const table = page.getByRole('region', { name: 'Income, last 30 days' }).getByRole('table')
    const today = table.getByRole('row').nth(1)
    await expect(today.getByRole('cell')).toHaveText([/^\d{4}-\d{2}-\d{2}$/, '¥11.72', '1'])
    await expect(table.getByRole('row').nth(2).getByRole('cell')).toHaveText([/^\d{4}-\d{2}-\d{2}$/, '¥0.00', '0'])

    const sale = page.getByRole('region', { name: 'Recent orders' }).getByRole('row').filter({ hasText: share.title })
    await expect(sale).toContainText('¥12.34')
    await expect(sale).toContainText('¥11.72')
    await expect(sale).toContainText('Settled')
    // Settles SETTLEMENT_DELAY_HOURS after payment: at once here.
    const settles = (await sale.getByTitle(/^Settles /).getAttribute('title'))!.replace('Settles ', '')
    const settleAt = new Date(`${settles.replace(' ', 'T')}+08:00`).getTime()
    expect(Math.abs(settleAt - paidAt)).toBeLessThan(60_000)

    // Getting started: phone and terms done, the Alipay account left.
    await expect(page.getByText('1 step left')).toBeVisible()

    // The income orders list says the same.
    await page.goto('/share-manage/order-list')
    const row = page.getByRole('row').filter({ hasText: share.unicode })
    await expect(row).toContainText('Completed')
    await expect(row).toContainText('Settled')
  })

  test('a seller with no sales sees zeros, an empty series and no orders', async ({ page, context, api }) => {
    const seller = await api.createUser('email', 'inc0')
    await loginAs(context, seller)
    await page.goto('/dashboard/workplace')
    for (const label of ['Withdrawable now', 'This month', 'Today', 'Unsettled', 'Total income']) await expect(figure(page, label)).toHaveText('¥0.00')
    await expect(page.getByText('No income in the last 30 days.')).toBeVisible()
    await expect(page.getByText(/^No orders yet\./)).toBeVisible()
    await expect(page.getByText('3 steps left')).toBeVisible()
  })
})
