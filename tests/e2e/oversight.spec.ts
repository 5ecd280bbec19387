// Admin oversight of accounts (issue 9 B) end to end, with JavaScript on and off: an admin finds a user,
// opens their admin view and edits a field (a bad value first, then a good one); and "ban seller and
// refund buyers" — previewed with the orders and their total, then done: the buyers' orders are
// refunded, the seller is banned and the shares cannot be bought. A seller that opened its own sales
// first changes nothing: its looks are listed for the admin, not counted (issue 20, decision 102).
import type { Page } from '@playwright/test'
import { ordersApi } from '#contract/orders.ts'
import { shareApi, sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, expectFieldError, expectFlash, loginAs, setLocale, type TestUser, test, uniqueEmail, uniqueName } from './fixtures.ts'

test.use({ lng: 'en-US' })

/** A seller allowed to publish: signed up by phone, terms agreed. */
async function newSeller(api: Api): Promise<TestUser & { id: number; token: string }> {
  const user = await api.createUser('phone', 'fr')
  const token = await api.login(user.user_name, user.password)
  await api.ok(usersApi.agreeToTerms, { token })
  return { ...user, token }
}

async function approvedShare(api: Api, seller: { token: string }, price: number) {
  const share = await api.ok(sharesApi.new, {
    token: seller.token,
    body: { title: uniqueName('frshare'), type: 'text', content: 'secret', price, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share
}

/** Buys the share through the sandbox checkout's Pay button (as `buyer`, or as a visitor). */
async function buy(api: Api, unicode: string, buyer?: string) {
  const { orderNo, payUrl } = await api.ok(ordersApi.create, { token: buyer, body: { unicode, paymentMethod: 'Alipay' } })
  expect(await api.payInSandbox(payUrl)).toBe(303)
  return orderNo
}

const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text })

test('an admin finds a user, views them and edits a field: a bad value is refused at the field, a good one saved', { tag: '@js-off' }, async ({ page, context, api }) => {
  const user = await api.createUser('email', 'ov')
  await loginAs(context, ADMIN.username, ADMIN.password)
  await page.goto('/system/user-manage')
  await page.getByLabel('User name, email or phone').fill(user.user_name)
  await page.getByLabel('Ban', { exact: true }).selectOption('0')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/is_banned=0/)
  await row(page, user.user_name).getByRole('link', { name: user.user_name, exact: true }).click()
  await expect(page.getByRole('heading', { name: user.user_name, level: 2 })).toBeVisible()
  await expect(page).toHaveTitle(new RegExp(`^${user.user_name} - User`))
  await expect(page.getByRole('heading', { name: 'Income' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible()

  const email = page.getByLabel(/^Email/)
  await email.fill('not-an-email')
  await page.getByRole('button', { name: 'Save' }).click()
  await expectFieldError(email, 'Please enter a valid email address.')
  const fresh = uniqueEmail(uniqueName('ovnew'))
  await email.fill(fresh)
  await page.getByRole('button', { name: 'Save' }).click()
  await expectFlash(page, 'Edited Successfully')
  await expect(page.getByLabel(/^Email/)).toHaveValue(fresh)
  expect((await api.adminGetUser(user.id)).email).toBe(fresh)
  // The change is in the user's history, by the admin.
  await expect(row(page, 'Profile edited')).toContainText('admin')
  await expect(row(page, 'Profile edited')).toContainText('email')
})

test('ban seller and refund buyers: the preview lists the orders and the total, then one step bans, takes down and refunds', { tag: '@js-off' }, async ({ page, context, api }) => {
  const seller = await newSeller(api)
  const buyer = await api.createUser('email', 'frb')
  const buyerToken = await api.login(buyer.user_name, buyer.password)
  const a = await approvedShare(api, seller, 10)
  const b = await approvedShare(api, seller, 20)
  const orders = [await buy(api, a.unicode, buyerToken), await buy(api, b.unicode)]
  // The seller opens each of its sales by number, as it could before to empty the refund in advance.
  for (const no of orders) {
    const opened = await api.ok(shareApi.lookup, { token: seller.token, query: { third_party_trade_no: no } })
    expect(opened.content).toBe('secret')
  }

  await loginAs(context, ADMIN.username, ADMIN.password)
  await page.goto(`/system/user-manage/${seller.id}`)
  await page.getByRole('link', { name: 'Ban seller and refund buyers' }).click()
  await expect(page).toHaveURL(new RegExp(`/system/user-manage/${seller.id}/fraud$`))
  await expect(page.getByRole('heading', { name: 'Ban seller and refund buyers' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Shares to take down (2)' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Orders to refund (2)' })).toBeVisible()
  for (const no of orders) await expect(row(page, no).first()).toBeVisible()
  await expect(page.getByTestId('fraud-total')).toHaveText('¥30.00')
  // Who saw the sales: the seller, twice, neither counted.
  await expect(page.getByRole('heading', { name: "Who saw this seller's sales in the window (2)" })).toBeVisible()
  const reveals = page.getByTestId('reveal-row')
  await expect(reveals).toHaveCount(2)
  for (const no of orders) await expect(reveals.filter({ hasText: no })).toContainText(/Seller \(owner\).*Does not count/)

  await page.getByRole('button', { name: 'Ban and refund 2 orders (¥30.00)' }).click()
  await expect(page).toHaveURL(new RegExp(`/system/user-manage/${seller.id}$`))
  await expectFlash(page, 'Seller banned: 2 shares taken down, 2 orders refunded.')
  await expect(page.getByText('Banned', { exact: true }).first()).toBeVisible()
  await expect(row(page, 'Ban seller and refund buyers: done')).toBeVisible()

  // The buyer's order shows Refund; the shares cannot be bought; the seller cannot log in.
  const mine = await api.ok(ordersApi.list, { token: buyerToken })
  expect(mine.list.find((o) => o.orderNo === orders[0])?.payment_status).toBe('Refund')
  const again = await api.call(ordersApi.create, { body: { unicode: a.unicode, paymentMethod: 'Alipay' } })
  expect(again.code).toBeGreaterThanOrEqual(400)
  // The admin's order list shows both refunded, each with its history.
  await page.goto(`/system/order-manage?orderNo=${orders[1]}`)
  await expect(row(page, orders[1]!)).toContainText('Refund')
  await row(page, orders[1]!).getByRole('link', { name: 'History' }).click()
  await expect(page.getByText(`Order ${orders[1]}`, { exact: true })).toBeVisible()
  await expect(row(page, 'Refund').filter({ hasText: 'fraud action' })).toBeVisible()
  // Who saw it, in the order's Reveals (both languages).
  await page.goto(`/system/order-manage?orderNo=${orders[1]}`)
  await row(page, orders[1]!).getByRole('link', { name: 'Reveals' }).click()
  await expect(page.getByText(`Who saw order ${orders[1]}`, { exact: true })).toBeVisible()
  await expect(page.getByTestId('reveal-row')).toHaveCount(1)
  await expect(page.getByTestId('reveal-row')).toContainText(seller.user_name)
  await expect(page.getByTestId('reveal-row')).toContainText(/Seller \(owner\).*Does not count/)
  await setLocale(context, 'zh-CN')
  await page.goto(`/system/order-manage?orderNo=${orders[1]}&reveals=${new URL(page.url()).searchParams.get('reveals')}`)
  await expect(page.getByText(`订单 ${orders[1]} 的查看记录`, { exact: true })).toBeVisible()
  await expect(page.getByTestId('reveal-row')).toContainText(/卖家（分享者）.*不计入/)
  await setLocale(context, 'en-US')

  // A second run finds nothing left: the preview says so.
  await page.goto(`/system/user-manage/${seller.id}/fraud`)
  await expect(page.getByRole('heading', { name: 'Orders to refund (0)' })).toBeVisible()
  await expect(page.getByText(/Nothing left to do/)).toBeVisible()
})
