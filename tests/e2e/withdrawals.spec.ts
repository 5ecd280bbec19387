// Withdrawals end to end (issue 7; DESIGN §3 Withdrawal): a sale's income is withdrawable (the e2e server
// settles at once, tests/e2e/env.ts; the unsettled period is proven with a moved clock in
// server/src/modules/withdrawals/withdrawals.test.ts), the seller withdraws through /dashboard/withdrawal,
// an admin completes or rejects it in /system/withdrawal-manage, and the figures move. Every test runs
// with JavaScript on and off.
import type { Page } from '@playwright/test'
import { ordersApi } from '#contract/orders.ts'
import { sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, expectFieldError, expectFlash, jsDisabled, loginAs, openPage, type TestUser, test, uniqueName } from './fixtures.ts'

/** A seller ready to withdraw: signed up by phone, terms agreed, Alipay details stored. */
async function newSeller(api: Api, realName: string): Promise<TestUser & { id: number; token: string }> {
  const user = await api.createUser('phone', 'wd')
  const token = await api.login(user.user_name, user.password)
  await api.ok(usersApi.agreeToTerms, { token })
  await api.ok(usersApi.updateAlipayInfo, { token, body: { alipayRealName: realName, alipayAccount: user.phone! } })
  return { ...user, token }
}

/** A visitor buys a new share of the seller for `price` through the sandbox gateway. */
async function sale(api: Api, seller: { token: string }, price: number) {
  const share = await api.ok(sharesApi.new, {
    token: seller.token,
    body: { title: uniqueName('wdshare'), type: 'text', content: 'secret', price, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  const { payUrl } = await api.ok(ordersApi.create, { body: { unicode: share.unicode, paymentMethod: 'Alipay' } })
  // What the sandbox checkout page's Pay button posts.
  expect(await api.payInSandbox(payUrl)).toBe(303)
}

const mine = (api: Api, seller: { token: string }) => api.ok(withdrawalsApi.list, { token: seller.token })
const withdrawable = (page: Page) => page.getByTestId('withdrawable')
const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text })

test.describe('withdrawing income (zh-CN)', { tag: '@js-off' }, () => {
  test('the income is withdrawable; a bad amount changes nothing; a withdrawal is requested and completed by the admin', async ({ page, context, api, browser }, testInfo) => {
    const seller = await newSeller(api, '李四')
    await sale(api, seller, 20) // income ¥19.00 after the 5 % fee
    await loginAs(context, seller)
    await page.goto('/dashboard/withdrawal')
    await expect(page).toHaveTitle('提现 - PayShare 付费分享')
    await expect(page.getByRole('heading', { name: '提现', exact: true })).toBeVisible()
    await expect(page.getByTestId('alipay-name')).toHaveText('李四')
    await expect(page.getByTestId('alipay-account')).toHaveText(seller.phone!)
    await expect(withdrawable(page)).toHaveText('¥19.00')

    // A bad amount first: refused at the field, nothing changes.
    const amount = page.getByLabel(/^提现金额/)
    await amount.fill('25')
    await page.getByRole('button', { name: '提现', exact: true }).click()
    await expectFieldError(amount, '金额超过了您的可提现收入。')
    await amount.fill('12.345')
    await page.getByRole('button', { name: '提现', exact: true }).click()
    await expectFieldError(amount, '金额最多保留两位小数（分）。')
    expect((await mine(api, seller)).total).toBe(0)
    await expect(withdrawable(page)).toHaveText('¥19.00')

    // The fee and the actual amount before submitting: live with JavaScript, by "预览" without.
    await amount.fill('15')
    if (jsDisabled(testInfo)) await page.getByRole('button', { name: '预览' }).click()
    await expect(page.getByTestId('preview-previewFee')).toHaveText('¥0.15')
    await expect(page.getByTestId('preview-previewActual')).toHaveText('¥14.85')
    await expect(page.getByLabel(/^提现金额/)).toHaveValue('15')
    await page.getByRole('button', { name: '提现', exact: true }).click()
    await expectFlash(page, '提现申请已提交，管理员处理后将转入您的支付宝账户。')
    await expect(withdrawable(page)).toHaveText('¥4.00')
    await expect(row(page, '¥15.00')).toContainText('待处理')
    await expect(row(page, '¥15.00')).toContainText('¥14.85')

    // The admin pays it by hand and enters the transfer order number (SPEC §4).
    const [w] = (await mine(api, seller)).list
    const adminContext = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    await loginAs(adminContext, ADMIN.username, ADMIN.password)
    const admin = await openPage(adminContext, !jsDisabled(testInfo))
    await admin.goto(`/system/withdrawal-manage?keyword=${seller.user_name}`)
    await expect(row(admin, seller.user_name)).toContainText('待处理')
    await admin.getByRole('link', { name: `标记已打款 #${w!.id}` }).click()
    const dialog = admin.getByRole('dialog', { name: `将提现 #${w!.id} 标记为已打款` })
    await expect(dialog).toContainText('¥14.85')
    await dialog.getByRole('button', { name: '标记已打款' }).click()
    await expectFieldError(dialog.getByLabel(/^交易单号/), '请输入转账交易单号。')
    await dialog.getByLabel(/^交易单号/).fill('20261123200040011100880012345678')
    await dialog.getByRole('button', { name: '标记已打款' }).click()
    await expectFlash(admin, '已标记为已打款。')
    await expect(row(admin, seller.user_name)).toContainText('已完成')
    await expect(row(admin, seller.user_name)).toContainText('20261123200040011100880012345678')
    await expect(admin.getByRole('link', { name: `标记已打款 #${w!.id}` })).toHaveCount(0)
    await adminContext.close()

    // The seller sees it completed; the withdrawable income stays what is left.
    await page.reload()
    await expect(row(page, '¥15.00')).toContainText('已完成')
    await expect(row(page, '¥15.00')).toContainText('20261123200040011100880012345678')
    await expect(withdrawable(page)).toHaveText('¥4.00')
  })
})

test.describe('a rejected withdrawal (en-US)', { tag: '@js-off' }, () => {
  test.use({ lng: 'en-US' })

  test('the admin rejects it with a reason; the seller sees why and has the money back', async ({ page, context, api, browser }, testInfo) => {
    const seller = await newSeller(api, 'Wang Wu')
    await sale(api, seller, 30) // income ¥28.50
    await loginAs(context, seller)
    await page.goto('/dashboard/withdrawal')
    await expect(withdrawable(page)).toHaveText('¥28.50')
    await page.getByLabel(/^Amount \(yuan\)/).fill('20')
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click()
    await expectFlash(page, 'Withdrawal requested.')
    await expect(withdrawable(page)).toHaveText('¥8.50')

    const [w] = (await mine(api, seller)).list
    const adminContext = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    await adminContext.addCookies([{ name: 'ps_lng', value: encodeURIComponent(Buffer.from(JSON.stringify('en-US')).toString('base64')), url: new URL(page.url()).origin }])
    await loginAs(adminContext, ADMIN.username, ADMIN.password)
    const admin = await openPage(adminContext, !jsDisabled(testInfo))
    await admin.goto(`/system/withdrawal-manage?keyword=${seller.user_name}&status=Pending`)
    await admin.getByRole('link', { name: `Reject #${w!.id}` }).click()
    const dialog = admin.getByRole('dialog', { name: `Reject withdrawal #${w!.id}` })
    await expect(dialog).toContainText("The amount of ¥20.00 is returned to")
    await dialog.getByRole('button', { name: 'Reject' }).click()
    await expectFieldError(dialog.getByLabel(/^Reason/), 'Enter the reason for the rejection.')
    await dialog.getByLabel(/^Reason/).fill('The Alipay account does not match the real name.')
    await dialog.getByRole('button', { name: 'Reject' }).click()
    await expectFlash(admin, 'The withdrawal was rejected')
    // Filtered to Pending: it is gone from that view.
    await expect(row(admin, seller.user_name)).toHaveCount(0)
    await adminContext.close()

    await page.reload()
    await expect(withdrawable(page)).toHaveText('¥28.50')
    await expect(row(page, '¥20.00')).toContainText('Failed')
    await expect(row(page, '¥20.00')).toContainText('The Alipay account does not match the real name.')
  })
})

