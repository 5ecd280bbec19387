// Issue 8 end to end, with JavaScript on and off (projects): an admin creates a package, a user buys it
// in the sandbox gateway, unlocks shares for free on their pages, watches the counter go down until the
// day's limit is reached and the buy form is the only way left. Also the admin's package list: edit,
// off shelf, and delete — 'Delete Fail' with subscribers, 'Delete Success' without (SPEC §8).
import type { Page } from '@playwright/test'
import { packagesApi } from '#contract/packages.ts'
import { sharesApi } from '#contract/shares.ts'
import { type Api, expect, expectFieldError, expectFlash, loginAs, test, uniqueName } from './fixtures.ts'
import { ADMIN, DEMO_PASSWORD } from './env.ts'

const SELLER = 'demo_seller'

/** A share of demo_seller, approved, open to subscribers unless told. */
async function openShare(api: Api, subscription: 'open' | 'close' = 'open') {
  const seller = await api.login(SELLER, DEMO_PASSWORD)
  const secret = `sub-secret-${Math.random().toString(36).slice(2)} 订阅`
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: uniqueName('subshare'), type: 'text', content: secret, price: 4.2, subscription_status: subscription },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return { ...share, secret }
}

/** A URL-driven dialog: a modal with JavaScript, a page section without. */
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name }).or(page.getByRole('alertdialog', { name }))
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

test.describe('subscription packages (en-US)', { tag: '@js-off' }, () => {
  test.use({ lng: 'en-US' })

  test('admin creates a package → a user buys it → unlocks shares free → the counter goes down → at the limit only the buy form is left', async ({ page, context, api }) => {
    test.slow()
    // ---- the admin creates a package of 2 free unlocks a day
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/system/package-list')
    await expect(page.getByRole('heading', { name: 'Package management', level: 2 })).toBeVisible()
    await page.getByRole('link', { name: 'New package' }).click()
    const form = dialog(page, 'New package')
    await form.getByRole('button', { name: 'Create' }).click()
    await expectFieldError(form.getByLabel(/^Name/), 'Please enter the package name.')
    const name = uniqueName('Pack')
    await form.getByLabel(/^Name/).fill(name)
    await form.getByLabel(/^Free unlocks a day/).fill('0')
    await form.getByLabel(/^Price/).fill('3.5')
    await form.getByLabel(/^Duration/).fill('30')
    await form.getByRole('button', { name: 'Create' }).click()
    await expectFieldError(dialog(page, 'New package').getByLabel(/^Free unlocks a day/), 'Enter a whole number of free unlocks a day, from 1 to 1000.')
    await dialog(page, 'New package').getByLabel(/^Free unlocks a day/).fill('2')
    await dialog(page, 'New package').getByRole('button', { name: 'Create' }).click()
    await expectFlash(page, 'Package created')
    await expect(page).toHaveURL('/system/package-list')
    await expect(row(page, name)).toContainText('¥3.50')
    await expect(row(page, name)).toContainText('On sale')

    // ---- a new user buys it through the sandbox gateway (Alipay method)
    const shares = [await openShare(api), await openShare(api), await openShare(api)]
    const user = await api.createUser('email', 'sub')
    await context.clearCookies({ name: 'ps_session' })
    await loginAs(context, user)
    await page.goto('/subscription-manage/package-list')
    await expect(page.getByRole('heading', { name: 'Packages', level: 2 })).toBeVisible()
    const card = page.getByRole('region', { name })
    await expect(card).toContainText('2 free unlocks a day')
    await card.getByLabel('Alipay').check()
    await card.getByRole('button', { name: 'Buy for ¥3.50' }).click()
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await expect(page.getByText('¥3.50')).toBeVisible()
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page).toHaveURL(/\/subscription-manage\/package-list\?order=PS\d{26}$/)
    await expect(page.getByText('Payment received: your subscription is open.', { exact: false })).toBeVisible()
    await expect(page.getByRole('region', { name })).toContainText('Yours until')
    await expect(page.getByRole('region', { name }).getByRole('button', { name: 'Extend for ¥3.50' })).toBeVisible()

    await page.goto('/subscription-manage/subscription-list')
    await expect(page.getByTestId('unlocks-today')).toHaveText('Today: 2 of 2 free unlocks left')
    await expect(row(page, name)).toContainText('Opened')

    // ---- unlock the first share free: the content at once, the counter down by one
    await page.goto(`/share/${shares[0]!.unicode}`)
    await expect(page.locator('#secret-content')).toHaveCount(0)
    await page.getByRole('button', { name: 'Unlock free (2 left today)' }).click()
    await expect(page).toHaveURL(`/share/${shares[0]!.unicode}?unlocked=1`)
    await expect(page.getByText('Unlocked free with your subscription. Here is the content:')).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveText(shares[0]!.secret)
    // Opened again, it is still theirs, and no unlock is offered on it.
    await page.goto(`/share/${shares[0]!.unicode}`)
    await expect(page.locator('#secret-content')).toHaveText(shares[0]!.secret)
    await expect(page.getByRole('button', { name: /Unlock free/ })).toHaveCount(0)

    await page.goto('/subscription-manage/subscription-list')
    await expect(page.getByTestId('unlocks-today')).toHaveText('Today: 1 of 2 free unlocks left')

    // ---- the second: the last one of the day
    await page.goto(`/share/${shares[1]!.unicode}`)
    await page.getByRole('button', { name: 'Unlock free (1 left today)' }).click()
    await expect(page.locator('#secret-content')).toHaveText(shares[1]!.secret)

    // ---- the limit reached: only the buy form is left
    await page.goto(`/share/${shares[2]!.unicode}`)
    await expect(page.getByRole('heading', { name: shares[2]!.title })).toBeVisible()
    await expect(page.getByRole('button', { name: /Unlock free/ })).toHaveCount(0)
    await expect(page.getByText("You have used today's free unlocks")).toBeVisible()
    await expect(page.getByRole('button', { name: 'Buy for ¥4.20' })).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveCount(0)
    await page.goto('/subscription-manage/subscription-list')
    await expect(page.getByTestId('unlocks-today')).toHaveText('Today: 0 of 2 free unlocks left')

    // ---- both unlocks are under My orders: zero amount, settled by the subscription
    await page.goto('/user/order-list')
    for (const s of shares.slice(0, 2)) {
      const r = row(page, s.title)
      await expect(r).toContainText('¥0.00')
      await expect(r).toContainText('Subscription')
      await expect(r).toContainText('Completed')
    }
    await expect(row(page, shares[2]!.title)).toHaveCount(0)

    // ---- the admin sees the subscription, and cannot delete the package now ('Delete Fail')
    await context.clearCookies({ name: 'ps_session' })
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/subscription-manage?keyword=${user.user_name}`)
    await expect(row(page, user.user_name)).toContainText(name)
    await expect(row(page, user.user_name)).toContainText('Opened')
    await page.goto(`/system/package-list?keyword=${name}`)
    await page.getByRole('link', { name: `Delete ${name}` }).click()
    await dialog(page, 'Confirm to delete?').getByRole('button', { name: 'Delete' }).click()
    await expectFlash(page, 'Delete Fail')
    await expect(row(page, name)).toBeVisible()
  })

  test('admin: edit, off shelf and on sale again, delete asks first and answers Delete Success', async ({ page, context, api }) => {
    const name = uniqueName('Shelf')
    await api.ok(packagesApi.adminCreate, { token: await api.adminToken(), body: { name, download_limit: 1, price: 2, duration_days: 7 } })
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/package-list?keyword=${name}`)

    await page.getByRole('link', { name: `Edit ${name}` }).click()
    const edit = dialog(page, 'Edit package')
    await expect(edit.getByLabel(/^Price/)).toHaveValue('2.00')
    await edit.getByLabel(/^Free unlocks a day/).fill('4')
    await edit.getByLabel(/^Price/).fill('2.5')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, 'Edited Successfully')
    await expect(row(page, name)).toContainText('¥2.50')

    await page.getByRole('button', { name: `Take off shelf ${name}` }).click()
    await expect(row(page, name)).toContainText('Off shelf')
    // Off shelf: not offered to buyers.
    const user = await api.createUser('email', 'shelf')
    const token = await api.login(user.user_name, user.password)
    const onSale = await api.ok(packagesApi.list, { token, query: { pageSize: '100' } })
    expect(onSale.list.map((p) => p.name)).not.toContain(name)
    await page.getByRole('button', { name: `Put on sale ${name}` }).click()
    await expect(row(page, name)).toContainText('On sale')

    await page.getByRole('link', { name: `Delete ${name}` }).click()
    const confirm = dialog(page, 'Confirm to delete?')
    await expect(confirm).toContainText(name)
    await confirm.getByRole('link', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    await expect(row(page, name)).toBeVisible()
    await page.getByRole('link', { name: `Delete ${name}` }).click()
    await dialog(page, 'Confirm to delete?').getByRole('button', { name: 'Delete' }).click()
    await expectFlash(page, 'Delete Success')
    await expect(row(page, name)).toHaveCount(0)
  })
})

test.describe('subscription packages (zh-CN)', () => {
  test('the share page offers the free unlock in Chinese, and a share closed to subscribers does not', async ({ page, context, api }) => {
    const user = await api.createUser('email', 'subzh')
    const token = await api.login(user.user_name, user.password)
    const admin = await api.adminToken()
    const pkg = await api.ok(packagesApi.adminCreate, { token: admin, body: { name: uniqueName('包'), download_limit: 3, price: 1, duration_days: 30 } })
    // Bought and paid through the sandbox, as the checkout page's Pay button does.
    const { payUrl } = await api.ok(packagesApi.buy, { token, body: { id: pkg.id, paymentMethod: 'Alipay' } })
    expect(await api.payInSandbox(payUrl)).toBe(303)

    const open = await openShare(api)
    const closed = await openShare(api, 'close')
    await loginAs(context, user)
    await page.goto(`/share/${closed.unicode}`)
    await expect(page.getByRole('button', { name: /免费解锁/ })).toHaveCount(0)
    await expect(page.getByRole('button', { name: '购买 ¥4.20' })).toBeVisible()
    await page.goto(`/share/${open.unicode}`)
    await page.getByRole('button', { name: '免费解锁（今日剩余 3 次）' }).click()
    await expect(page.getByText('已使用订阅免费解锁，以下是内容：')).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveText(open.secret)
  })
})
