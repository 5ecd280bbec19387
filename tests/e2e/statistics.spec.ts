// Admin statistics and the instrument cluster (issue 9 C): the cluster's figures and queue links; the
// statistics report's tabs, sort links, date range (a bad one refused at its field), and the CSV export
// of a tab (UTF-8 with a byte-order mark, the header row in the admin's language). The report is links
// and GET forms: it runs with JavaScript on and off (`@js-off`), taking the same steps.
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { ordersApi } from '#contract/orders.ts'
import { sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, loginAs, test, uniqueName } from './fixtures.ts'

/** Shanghai's today (the day the API counts in). */
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)
const daysBefore = (day: string, n: number) => new Date(new Date(`${day}T00:00:00Z`).getTime() - n * 86_400_000).toISOString().slice(0, 10)

/** A new seller whose share a visitor buys for `price` through the sandbox gateway: a row of its own in the seller tab. */
async function sellerWithSale(api: Api, price: number) {
  // Publishing needs a phone and the sharing terms agreed.
  const seller = await api.createUser('phone', 'st')
  const token = await api.login(seller.user_name, seller.password)
  await api.ok(usersApi.agreeToTerms, { token })
  const share = await api.ok(sharesApi.new, {
    token,
    body: { title: uniqueName('stshare'), type: 'text', content: 'secret', price, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  const { payUrl } = await api.ok(ordersApi.create, { body: { unicode: share.unicode, paymentMethod: 'Alipay' } })
  expect(await api.payInSandbox(payUrl)).toBe(303)
  return seller
}

const header = (page: Page, name: string) => page.getByTestId('statistics-table').getByRole('columnheader', { name: new RegExp(`^${name}`) })

test.describe('instrument cluster', () => {
  test.use({ lng: 'en-US' })

  test('shows the platform figures and links each queue to its page', async ({ page, context }) => {
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/dashboard/instrument-cluster')
    await expect(page.getByRole('heading', { level: 2, name: 'Instrument cluster' })).toBeVisible()
    await expect(page).toHaveTitle(/^Instrument cluster - /)
    for (const label of ['GMV today', 'Orders today', 'GMV this month', 'New users today', 'Active sellers this month', 'Shares under review', 'Open reports', 'Pending appeals', 'Pending withdrawals']) {
      // .first(): a queue's name is also the hidden end of its link's text.
      await expect(page.getByText(label, { exact: true }).first()).toBeVisible()
    }
    await expect(page.getByTestId('queue-openReports')).toHaveAttribute('href', '/system/report-manage')
    await expect(page.getByTestId('queue-pendingAppeals')).toHaveAttribute('href', '/system/appeal-manage')
    await expect(page.getByTestId('queue-sharesUnderReview')).toHaveAttribute('href', '/system/share-manage?status=under_review')
    await page.getByTestId('queue-pendingWithdrawals').click()
    await expect(page).toHaveURL(/\/system\/withdrawal-manage\?status=Pending$/)
    await expect(page.getByRole('heading', { level: 2, name: 'Withdrawals' })).toBeVisible()
  })

  test('is for admins only: a user is sent to the workplace', async ({ page, context, api }) => {
    await loginAs(context, await api.createUser())
    await page.goto('/dashboard/instrument-cluster')
    await expect(page).toHaveURL(/\/dashboard\/workplace$/)
    await expect(page.getByText('Instrument cluster')).toHaveCount(0)
  })
})

test.describe('statistics report', () => {
  test.use({ lng: 'en-US' })

  test('tabs, sorting, a date range and a CSV export', { tag: '@js-off' }, async ({ page, context, api }) => {
    const seller = await sellerWithSale(api, 12.34)
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/system/statistics-report')
    await expect(page.getByRole('heading', { level: 2, name: 'Statistics' })).toBeVisible()
    const tabs = page.getByRole('navigation', { name: 'Statistics tabs' })
    await expect(tabs.getByRole('link', { name: 'Comprehensive' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByTestId('statistics-daily')).toBeVisible()

    // The seller tab: the new seller's sale, counted on the day it was made.
    await tabs.getByRole('link', { name: 'Seller orders' }).click()
    await expect(page).toHaveURL(/tab=sellers/)
    await expect(tabs.getByRole('link', { name: 'Seller orders' })).toHaveAttribute('aria-current', 'page')
    const row = page.getByTestId('statistics-table').getByRole('row').filter({ hasText: seller.user_name })
    await expect(row).toContainText('¥12.34')

    // Sorting: a header link, descending first, then ascending.
    await header(page, 'Orders').getByRole('link').click()
    await expect(page).toHaveURL(/sort=orders&order=desc/)
    await expect(header(page, 'Orders')).toHaveAttribute('aria-sort', 'descending')
    await header(page, 'Orders').getByRole('link').click()
    await expect(page).toHaveURL(/sort=orders&order=asc/)
    await expect(header(page, 'Orders')).toHaveAttribute('aria-sort', 'ascending')

    // A bad range is refused at its field, a good one applied.
    const to = today()
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(to)
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(daysBefore(to, 3))
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText('The start date must not be after the end date')).toBeVisible()
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(daysBefore(to, 6))
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(to)
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(new RegExp(`from=${daysBefore(to, 6)}&to=${to}`))
    await expect(page.getByText(`Totals, ${daysBefore(to, 6)} to ${to}`)).toBeVisible()
    await expect(row).toContainText('¥12.34')
    // A range before the sale: the seller is not in it.
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(daysBefore(to, 30))
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(daysBefore(to, 20))
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText(`Totals, ${daysBefore(to, 30)} to ${daysBefore(to, 20)}`)).toBeVisible()
    await expect(row).toHaveCount(0)

    // The CSV of the seller tab over the last week.
    await page.goto(`/system/statistics-report?tab=sellers&from=${daysBefore(to, 6)}&to=${to}`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
    expect(download.suggestedFilename()).toBe(`statistics-sellers-${daysBefore(to, 6)}-${to}.csv`)
    const bytes = fs.readFileSync(await download.path())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.toString('utf8').slice(1).trim().split(/\r?\n/)
    expect(lines[0]).toBe('User,User ID,Orders,Completed,Pending,Failed,Refunded,Free unlocks,GMV,Amount refunded,Fees,Seller income,Shares,Visits,Conversion rate')
    const mine = lines.find((l) => l.startsWith(`${seller.user_name},`))
    expect(mine).toMatch(/^[^,]+,\d+,1,1,0,0,0,0,12\.34,0\.00,/)
    expect(lines.at(-1)).toMatch(new RegExp(`^Total ${daysBefore(to, 6)} – ${to},`))
  })

  test('a bad range in the CSV link is a clear 422; non-admins are sent to the workplace', async ({ context, api }) => {
    await loginAs(context, ADMIN.username, ADMIN.password)
    const bad = await context.request.get('/system/statistics-report/csv?tab=orders&from=2026-11-10&to=2026-11-01')
    expect(bad.status()).toBe(422)
    expect(await bad.text()).toBe('The start date must not be after the end date')
    await context.clearCookies()
    await loginAs(context, await api.createUser())
    for (const path of ['/system/statistics-report/csv?tab=orders', '/system/statistics-report']) {
      const res = await context.request.get(path, { maxRedirects: 0 })
      expect(res.status(), path).toBe(302)
      expect(res.headers().location, path).toBe('/dashboard/workplace')
    }
  })
})

test.describe('statistics report in Chinese', () => {
  test.use({ lng: 'zh-CN' })

  test('the CSV header is in the admin’s language, readable in a spreadsheet thanks to the BOM', async ({ context }) => {
    await loginAs(context, ADMIN.username, ADMIN.password)
    const res = await context.request.get('/system/statistics-report/csv?tab=withdrawals')
    expect(res.status()).toBe(200)
    expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8')
    const body = await res.body()
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(body.toString('utf8').slice(1).split(/\r?\n/)[0]).toBe('用户,用户 ID,提现次数,已完成,待处理,已失败,申请金额,实际到账,服务费')
  })
})
