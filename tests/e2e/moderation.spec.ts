// Reports and appeals (issue 9 part A, SPEC §2 /system/report-manage and /system/appeal-manage, §4
// actions): a visitor reports a share from its page, an admin decides after confirming, the seller
// appeals a take-down from My shares; JavaScript on and off. That every admin page sends a non-admin away
// is proven for every route by app/routes/_app.system/admin-access.test.ts.
import type { Page } from '@playwright/test'
import { ordersApi } from '#contract/orders.ts'
import { appealsApi, reportsApi } from '#contract/moderation.ts'
import { type PublicShare, sharesApi } from '#contract/shares.ts'
import type { BrowserContext } from '@playwright/test'
import { type Api, expect, expectFieldError, expectFlash, type Lng, loginAs, setLocale, test, uniqueName } from './fixtures.ts'
import { ADMIN, DEMO_PASSWORD } from './env.ts'

const SELLER = 'demo_seller'

async function approvedShare(api: Api): Promise<PublicShare> {
  const token = await api.login(SELLER, DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, { token, body: { title: uniqueName('rep'), type: 'text', content: 'secret text', price: 2.5, subscription_status: 'close' } })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share
}

const sellerShare = async (api: Api, id: number) => api.ok(sharesApi.detail, { token: await api.login(SELLER, DEMO_PASSWORD), query: { id: String(id) } })
/** Back to a visitor (an admin or the seller would see the content instead of the share's state). */
async function asVisitor(context: BrowserContext, lng: Lng) {
  await context.clearCookies()
  await setLocale(context, lng)
}
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name }).or(page.getByRole('alertdialog', { name }))

test.describe('report → take down → appeal → approve (en-US)', () => {
  test.use({ lng: 'en-US' })

  test('a visitor reports from the share page and follows the report; the admin takes the share down; the seller appeals; the admin approves; it is for sale again', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await approvedShare(api)

    // A visitor: the share page's Report link, a form that says what is missing, then the number.
    await page.goto(`/share/${share.unicode}`)
    await page.getByRole('link', { name: 'Report this share' }).click()
    await expect(page).toHaveURL(`/share/${share.unicode}/report`)
    await expect(page.getByRole('heading', { name: 'Report a share' })).toBeVisible()
    await expect(page.getByText(share.title)).toBeVisible()
    await page.getByRole('button', { name: 'Send report' }).click()
    await expect(page.getByText('Choose a reason.')).toBeVisible()
    await page.getByLabel('Reason').selectOption({ label: 'Fraud or scam' })
    await page.getByLabel('Description (optional)').fill('Paid, and the text was empty.')
    await page.getByRole('button', { name: 'Send report' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}/report\\?no=\\d+$`))
    const reportId = Number(new URL(page.url()).searchParams.get('no'))
    await expect(page.getByRole('heading', { name: `Report No. ${reportId}` })).toBeVisible()
    await expect(page.getByText('Status: Processing')).toBeVisible()
    // The number alone, with another share's code, finds nothing.
    const other = await approvedShare(api)
    expect((await page.goto(`/share/${other.unicode}/report?no=${reportId}`))?.status()).toBe(404)
    await expect(page.getByRole('alert')).toContainText('There is no report with this number for this share.')

    // The admin: the queue filtered by the share, the confirm step, the take-down.
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/report-manage?unicode=${share.unicode}`)
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible()
    const reportRow = row(page, 'Paid, and the text was empty.')
    await expect(reportRow).toContainText('Fraud or scam')
    await expect(reportRow).toContainText('Processing')
    await expect(reportRow).toContainText('Visitor')
    await reportRow.getByRole('link', { name: `Take down #${reportId}` }).click()
    const ask = dialog(page, 'Take the share down?')
    await expect(ask).toContainText(share.title)
    await ask.getByRole('link', { name: 'Cancel' }).click()
    await expect(ask).toBeHidden()
    expect((await sellerShare(api, share.id)).status).toBe('approved')
    await reportRow.getByRole('link', { name: `Take down #${reportId}` }).click()
    await dialog(page, 'Take the share down?').getByRole('button', { name: 'Take down' }).click()
    await expectFlash(page, 'Report handled.')
    await expect(reportRow).toContainText('Handled')
    await expect(reportRow.getByRole('link')).toHaveCount(1) // only the share code
    expect((await sellerShare(api, share.id)).status).toBe('reported_invalid')
    await asVisitor(context, 'en-US')
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByText('This share has been taken down after a report.')).toBeVisible()
    await expect(page.getByRole('button', { name: /^Buy for/ })).toHaveCount(0)
    await page.goto(`/share/${share.unicode}/report?no=${reportId}`)
    await expect(page.getByText('Status: Handled')).toBeVisible()
    await expect(page.getByText('The share was taken down.')).toBeVisible()

    // The seller: the reason in My shares and the appeal form (an empty appeal is refused on the form).
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto(`/share-manage/search-table?title=${share.title}`)
    const mine = row(page, share.title)
    await expect(mine).toContainText('Taken down for: Fraud or scam')
    await mine.getByRole('link', { name: `Appeal ${share.title}` }).click()
    const form = dialog(page, 'Appeal the take-down')
    await form.getByRole('button', { name: 'Send appeal' }).click()
    await expectFieldError(form.getByLabel('Your appeal'), 'Say why the share should be restored.')
    await form.getByLabel('Your appeal').fill('The text is there; the buyer used the wrong order number.')
    await form.getByRole('button', { name: 'Send appeal' }).click()
    await expectFlash(page, 'Appeal sent.')
    await expect(mine).toContainText('Pending')
    await expect(mine.getByRole('link', { name: `Appeal ${share.title}` })).toHaveCount(0)

    // The admin: the appeal, its view with the share's history, approve after confirming.
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/appeal-manage?unicode=${share.unicode}`)
    await expect(page.getByRole('heading', { name: 'Appeals' })).toBeVisible()
    const appealRow = row(page, 'the buyer used the wrong order number')
    await expect(appealRow).toContainText('Fraud or scam')
    await expect(appealRow).toContainText(SELLER)
    await appealRow.getByRole('link', { name: /^View #/ }).click()
    const view = dialog(page, `History of “${share.title}” (${share.unicode})`)
    await expect(view).toContainText('Taken down (report)')
    await view.getByRole('link', { name: 'Close' }).click()
    await expect(view).toBeHidden()
    await appealRow.getByRole('link', { name: /^Approve #/ }).click()
    await dialog(page, 'Approve the appeal?').getByRole('button', { name: 'Approve' }).click()
    await expectFlash(page, 'Appeal decided.')
    await expect(appealRow).toContainText('Approved')

    // The history on share-manage, and the share for sale again.
    await page.goto(`/system/share-manage?keyword=${share.unicode}`)
    await page.getByRole('link', { name: `History ${share.title}` }).click()
    const history = dialog(page, `History of “${share.title}” (${share.unicode})`)
    await expect(history).toContainText('Taken down (report)')
    await expect(history).toContainText('Appeal approved')
    await expect(history).toContainText(`#${reportId} fraud`)
    await asVisitor(context, 'en-US')
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByRole('button', { name: /^Buy for/ })).toBeVisible()
    const created = await api.call(ordersApi.create, { body: { unicode: share.unicode, paymentMethod: 'Alipay' } })
    expect(created.code).toBe(201)
  })

  test('reporting a share that does not exist says so', async ({ page }) => {
    const res = await page.goto('/share/ZZZZZZZZ/report')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('alert')).toContainText('This share cannot be reported: there is no share with this code.')
  })
})

test.describe('the ban path (zh-CN)', () => {
  test.use({ lng: 'zh-CN' })

  test('report → ban after confirming: the share shows it is banned, cannot be reported or appealed', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await approvedShare(api)
    const { id } = await api.ok(reportsApi.create, { body: { unicode: share.unicode, reason: 'illegal', description: '违法内容' } })
    await api.ok(reportsApi.create, { body: { unicode: share.unicode, reason: 'spam', description: '' } })

    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/report-manage?unicode=${share.unicode}&status=processing`)
    await expect(page.getByRole('heading', { name: '举报管理' })).toBeVisible()
    await expect(page.getByRole('row')).toHaveCount(3)
    await row(page, '违法内容').getByRole('link', { name: `封禁 #${id}` }).click()
    const ask = dialog(page, '封禁该分享？')
    await expect(ask).toContainText('2 条待处理举报')
    await ask.getByRole('button', { name: '封禁' }).click()
    await expectFlash(page, '举报已处理。')
    // Both reports of the share were closed by the one decision.
    await page.goto(`/system/report-manage?unicode=${share.unicode}`)
    await expect(row(page, '已处理')).toHaveCount(2)
    const list = await api.ok(reportsApi.adminList, { token: await api.adminToken(), query: { unicode: share.unicode } })
    expect(list.list.map((r) => [r.status, r.action])).toEqual([
      ['handled', 'ban'],
      ['handled', 'ban'],
    ])

    await asVisitor(context, 'zh-CN')
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByText('该分享因违规已被封禁。')).toBeVisible()
    await expect(page.getByRole('link', { name: '举报该分享' })).toHaveCount(0)

    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto(`/share-manage/search-table?title=${share.title}`)
    await expect(row(page, share.title)).toContainText('违规')
    await expect(row(page, share.title).getByRole('link', { name: /^申诉/ })).toHaveCount(0)
    const refused = await api.call(appealsApi.create, { token: await api.login(SELLER, DEMO_PASSWORD), body: { unicode: share.unicode, description: '请恢复' } })
    expect(refused.code).toBe(409)
  })
})
