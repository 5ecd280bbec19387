// Share management in the console (SPEC §2 /share-manage, /user/order-list, /system/share-manage and
// /system/order-manage; DESIGN §3 publishing, share status, buying, refund), with JavaScript on and off.
import type { Page } from '@playwright/test'
import { type Order, ordersApi } from '#contract/orders.ts'
import { type OwnShare, type PublicShare, sharesApi } from '#contract/shares.ts'
import { type Api, expect, expectFieldError, expectFlash, jsDisabled, loginAs, test, uniqueName } from './fixtures.ts'
import { ADMIN, BASE_URL, DEMO_PASSWORD } from './env.ts'

const SELLER = 'demo_seller'
const BUYER = 'demo_buyer'

// ---- data through the API ----------------------------------------------------------------------
type NewShare = { title: string; type: 'text' | 'url' | 'netdisk'; content: string; price: number; extraction_code?: string }

async function createShare(api: Api, over: Partial<NewShare> = {}): Promise<PublicShare> {
  const token = await api.login(SELLER, DEMO_PASSWORD)
  const body: NewShare = { title: uniqueName('share'), type: 'text', content: 'secret text', price: 3.5, ...over }
  return api.ok(sharesApi.new, { token, body: { ...body, subscription_status: 'close' } })
}

async function setStatus(api: Api, id: number, status: 'approved' | 'reported_invalid' | 'violation') {
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id, status } })
}

async function sellerShare(api: Api, id: number): Promise<OwnShare> {
  return api.ok(sharesApi.detail, { token: await api.login(SELLER, DEMO_PASSWORD), query: { id: String(id) } })
}

async function adminOrder(api: Api, orderNo: string): Promise<Order> {
  const page = await api.ok(ordersApi.adminList, { token: await api.adminToken(), query: { orderNo } })
  return page.list[0]!
}

/** demo_buyer buys a share through the sandbox gateway; `pay: false` leaves the order Pending. */
async function buy(api: Api, unicode: string, { pay = true } = {}): Promise<string> {
  const token = await api.login(BUYER, DEMO_PASSWORD)
  const { orderNo, payUrl } = await api.ok(ordersApi.create, { token, body: { unicode, paymentMethod: 'Alipay' } })
  if (!pay) return orderNo
  // What the checkout page's Pay button posts.
  expect(await api.payInSandbox(payUrl)).toBe(303)
  await expect.poll(async () => (await adminOrder(api, orderNo)).payment_status).toBe('Completed')
  return orderNo
}

// ---- page helpers ------------------------------------------------------------------------------
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
/** A URL-driven dialog: a modal with JavaScript, a page section without. */
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name }).or(page.getByRole('alertdialog', { name }))

const F = {
  title: /^Title/,
  content: /^(Content|Link)/,
  code: /^Extraction code/,
  price: /^Price/,
}

async function fillShare(page: Page, v: { title?: string; type?: 'Text' | 'URL' | 'Netdisk'; content?: string; code?: string; price?: string }) {
  if (v.title !== undefined) await page.getByLabel(F.title).fill(v.title)
  // With JavaScript the content field follows the type, so the type comes first.
  if (v.type) await page.getByLabel(v.type, { exact: true }).check()
  if (v.content !== undefined) await page.getByLabel(F.content).fill(v.content)
  if (v.code !== undefined) await page.getByLabel(F.code).fill(v.code)
  if (v.price !== undefined) await page.getByLabel(F.price).fill(v.price)
}

const submitNew = (page: Page) => page.getByRole('button', { name: 'Submit for review' }).click()

test.describe('seller: my shares', () => {
  test.use({ lng: 'en-US' })

  test('bad input is refused field by field, then a URL share is created for review', { tag: '@js-off' }, async ({ page, context }) => {
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto('/share-manage/search-table')
    await expect(page.getByRole('heading', { name: 'My shares' })).toBeVisible()
    await page.getByRole('link', { name: 'New share' }).click()
    await expect(page).toHaveURL('/share-manage/new')
    await expect(page.getByRole('heading', { name: 'New share' })).toBeVisible()

    await submitNew(page)
    await expectFieldError(page.getByLabel(F.title), 'Please enter a title.')
    await expectFieldError(page.getByLabel(F.content), 'Please enter the content.')
    await expectFieldError(page.getByLabel(F.price), 'Please enter a price.')

    const title = uniqueName('url')
    await fillShare(page, { title, type: 'URL', content: 'ftp://example.com/file', price: '0' })
    await submitNew(page)
    await expectFieldError(page.getByLabel(F.content), 'Please enter a link starting with http:// or https://.')
    await expectFieldError(page.getByLabel(F.price), 'The price must be between ¥0.01 and ¥10,000.')
    await expect(page).toHaveURL('/share-manage/new')

    await fillShare(page, { content: 'https://example.com/file', price: '10000.01' })
    await submitNew(page)
    await expectFieldError(page.getByLabel(F.price), 'The price must be between ¥0.01 and ¥10,000.')

    await fillShare(page, { price: '1.234' })
    await submitNew(page)
    await expectFieldError(page.getByLabel(F.price), 'The price can have at most two decimals.')
    // What was typed survives the refusals (JS off: the page came back from the server).
    await expect(page.getByLabel(F.title)).toHaveValue(title)
    await expect(page.getByLabel('URL', { exact: true })).toBeChecked()

    await fillShare(page, { price: '12.5' })
    await submitNew(page)
    await expect(page).toHaveURL('/share-manage/search-table')
    await expectFlash(page, 'Share created and submitted for review.')
    const r = row(page, title)
    await expect(r).toContainText('URL')
    await expect(r).toContainText('¥12.50')
    await expect(r).toContainText('Under review')
  })

  test('a text share and a netdisk share with its extraction code', { tag: '@js-off' }, async ({ page, context, api }) => {
    await loginAs(context, SELLER, DEMO_PASSWORD)
    const text = uniqueName('txt')
    await page.goto('/share-manage/new')
    await fillShare(page, { title: text, type: 'Text', content: 'The secret: 42', price: '0.01' })
    await submitNew(page)
    await expectFlash(page, 'Share created and submitted for review.')
    await expect(row(page, text)).toContainText('¥0.01')

    const disk = uniqueName('disk')
    await page.goto('/share-manage/new')
    await fillShare(page, { title: disk, type: 'Netdisk', content: 'https://pan.example.com/s/abc', code: 'x9', price: '10000' })
    await page.getByLabel('Open to subscribers').check()
    await submitNew(page)
    await expectFlash(page, 'Share created and submitted for review.')
    const r = row(page, disk)
    await expect(r).toContainText('Netdisk')
    await expect(r).toContainText('¥10000.00')

    // What the API stored.
    const token = await api.login(SELLER, DEMO_PASSWORD)
    const list = await api.ok(sharesApi.list, { token, query: { title: disk } })
    const stored = await sellerShare(api, list.list[0]!.id)
    expect(stored).toMatchObject({ type: 'netdisk', content: 'https://pan.example.com/s/abc', extraction_code: 'x9', price: 10000, subscription_status: 'open', status: 'under_review' })
  })

  test('editing the price keeps the review; editing the title sends the share back to review', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await createShare(api, { type: 'url', content: 'https://example.com/a', price: 8 })
    await setStatus(api, share.id, 'approved')
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto(`/share-manage/search-table?title=${share.title}`)
    await expect(row(page, share.title)).toContainText('Approved')

    await page.getByRole('link', { name: `Edit ${share.title}` }).click()
    await expect(page).toHaveURL(`/share-manage/edit/${share.id}`)
    await expect(page.getByText('Changing the title, type or content sends the share back to review')).toBeVisible()
    await expect(page.getByLabel(F.content)).toHaveValue('https://example.com/a')
    // As the lists show it (¥8.00), not a bare 8 (issue 13).
    await expect(page.getByLabel(F.price)).toHaveValue('8.00')
    await page.getByLabel(F.price).fill('9.99')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL('/share-manage/search-table')
    await expectFlash(page, 'Edited Successfully')
    expect(await sellerShare(api, share.id)).toMatchObject({ price: 9.99, status: 'approved' })

    await page.goto(`/share-manage/edit/${share.id}`)
    await page.getByLabel(F.price).fill('1.234')
    await page.getByRole('button', { name: 'Save' }).click()
    await expectFieldError(page.getByLabel(F.price), 'The price can have at most two decimals.')
    const renamed = `${share.title}-v2`
    await page.getByLabel(F.title).fill(renamed)
    await page.getByLabel(F.price).fill('9.99')
    await page.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, 'Edited Successfully')
    await expect(row(page, renamed)).toContainText('Under review')
    expect(await sellerShare(api, share.id)).toMatchObject({ title: renamed, status: 'under_review', content: 'https://example.com/a' })
  })

  test("another seller's share is a 404 page", async ({ page, context, api }) => {
    const other = await api.createUser('email', 'other')
    await loginAs(context, other)
    const share = await createShare(api)
    const res = await page.goto(`/share-manage/edit/${share.id}`)
    expect(res?.status()).toBe(404)
    await expect(page.getByText('Whoops, this page is gone.')).toBeVisible()
  })

  test('delete asks first: Cancel keeps the share, Delete removes it', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await createShare(api)
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto(`/share-manage/search-table?title=${share.title}`)

    await page.getByRole('link', { name: `Delete ${share.title}` }).click()
    const confirm = dialog(page, 'Confirm to delete?')
    await expect(confirm).toContainText(share.title)
    await confirm.getByRole('link', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    await expect(row(page, share.title)).toBeVisible()

    await page.getByRole('link', { name: `Delete ${share.title}` }).click()
    await dialog(page, 'Confirm to delete?').getByRole('button', { name: 'Delete' }).click()
    await expectFlash(page, 'Delete Success')
    await expect(page).toHaveURL(`/share-manage/search-table?title=${share.title}`)
    await expect(row(page, share.title)).toHaveCount(0)
    const token = await api.login(SELLER, DEMO_PASSWORD)
    expect((await api.ok(sharesApi.list, { token, query: { title: share.title } })).total).toBe(0)
  })

  test('the share link: copied with JavaScript, shown with its QR code', async ({ page, api, context }, testInfo) => {
    const share = await createShare(api)
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto(`/share-manage/search-table?title=${share.title}`)
    const url = `${BASE_URL}/share/${share.unicode}`
    if (!jsDisabled(testInfo)) {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await row(page, share.title).getByRole('button', { name: 'Copy link' }).click()
      await expectFlash(page, 'Copy succeeded...')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)
    } else {
      await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0)
    }
    await row(page, share.title).getByRole('link', { name: 'Link & QR' }).click()
    const panel = dialog(page, 'Share link')
    await expect(panel.getByRole('textbox', { name: /^Link/ })).toHaveValue(url)
    await expect(panel.getByRole('img', { name: `QR code of ${url}` })).toBeVisible()
    await expect(panel.getByRole('img', { name: `QR code of ${url}` }).locator('svg')).toHaveCount(1)
  })
})

test.describe('seller without a bound phone', () => {
  test.use({ lng: 'zh-CN' })

  test('sees what is missing, and creating is refused with the reason', { tag: '@js-off' }, async ({ page, context, api }) => {
    const user = await api.createUser('email', 'nophone')
    await loginAs(context, user)
    await page.goto('/share-manage/search-table')
    const notice = page.getByRole('alert').filter({ hasText: '您暂时不能发布分享' })
    await expect(notice.getByRole('link', { name: '绑定安全手机' })).toHaveAttribute('href', '/user/setting#security-phone')
    await expect(notice.getByRole('link', { name: '同意分享免责声明' })).toHaveAttribute('href', '/agreement/exemptionagree')

    await page.getByRole('link', { name: '新建分享' }).click()
    await expect(page).toHaveURL('/share-manage/new')
    // The list page has a 标题 filter too: wait until the form page has rendered before typing.
    await expect(page.getByRole('heading', { name: '新建分享' })).toBeVisible()
    await page.getByLabel(/^标题/).fill(uniqueName('np'))
    await page.getByLabel(/^内容/).fill('secret')
    await page.getByLabel(/^价格/).fill('5')
    await page.getByRole('button', { name: '提交审核' }).click()
    // Once, on the form (issue 13: no toast besides).
    await expect(page.locator('form').getByRole('alert').filter({ hasText: '发布分享前请先绑定安全手机。' })).toBeVisible()
    await expect(page.getByText('发布分享前请先绑定安全手机。')).toHaveCount(1)
    await expect(page).toHaveURL('/share-manage/new')
    const token = await api.login(user.user_name, user.password)
    expect((await api.ok(sharesApi.list, { token })).total).toBe(0)
  })
})

test.describe('admin: share review', () => {
  test.use({ lng: 'en-US' })

  test('approve, take down after confirming, recover; ban after confirming', { tag: '@js-off' }, async ({ page, context, api }) => {
    const tag = uniqueName('mod')
    const a = await createShare(api, { title: `${tag}-a` })
    const b = await createShare(api, { title: `${tag}-b` })
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/share-manage?keyword=${tag}`)
    await expect(page.getByRole('heading', { name: 'Share review' })).toBeVisible()
    await expect(row(page, a.title)).toContainText('Under review')
    await expect(row(page, a.title).getByRole('link', { name: 'Open' })).toHaveAttribute('href', `/share/${a.unicode}`)

    await page.getByRole('button', { name: `Approve ${a.title}` }).click()
    // The toast says what was done (issue 23: it said "Edited Successfully").
    await expectFlash(page, 'Share approved.')
    await expect(row(page, a.title)).toContainText('Approved')
    // Taking down asks first (issue 13); Cancel leaves the share as it was.
    await page.getByRole('link', { name: `Take down ${a.title}` }).click()
    const askTakeDown = dialog(page, 'Take this share down?')
    await expect(askTakeDown).toContainText(a.title)
    await askTakeDown.getByRole('link', { name: 'Cancel' }).click()
    await expect(askTakeDown).toBeHidden()
    expect((await sellerShare(api, a.id)).status).toBe('approved')
    await page.getByRole('link', { name: `Take down ${a.title}` }).click()
    await dialog(page, 'Take this share down?').getByRole('button', { name: 'Take down' }).click()
    await expectFlash(page, 'Share taken down.')
    await expect(row(page, a.title)).toContainText('Taken down')
    await page.getByRole('button', { name: `Recover ${a.title}` }).click()
    await expectFlash(page, 'Share recovered.')
    await expect(row(page, a.title)).toContainText('Approved')
    expect((await sellerShare(api, a.id)).status).toBe('approved')

    await page.getByRole('link', { name: `Ban ${b.title}` }).click()
    const confirm = dialog(page, 'Ban this share?')
    await expect(confirm).toContainText(b.title)
    await confirm.getByRole('button', { name: 'Ban' }).click()
    await expectFlash(page, 'Share banned.')
    await expect(row(page, b.title)).toContainText('Violation')
    await expect(row(page, b.title)).toContainText('Final')
    await expect(row(page, b.title).getByRole('button')).toHaveCount(0)
    expect((await sellerShare(api, b.id)).status).toBe('violation')
  })

  test('edit a share: a bad price is refused on the form, then the new title and price show in the list and on the share page', { tag: '@js-off' }, async ({ page, context, api }) => {
    const tag = uniqueName('adm')
    const share = await createShare(api, { title: `${tag}-old`, price: 3.5 })
    await setStatus(api, share.id, 'approved')
    await loginAs(context, 'admin', ADMIN.password)
    const list = `/system/share-manage?keyword=${tag}&status=approved`
    await page.goto(list)

    await page.getByRole('link', { name: `Edit ${share.title}` }).click()
    await expect(page).toHaveURL(`${list}&edit=${share.id}`)
    const form = dialog(page, 'Edit share')
    await expect(form).toContainText(`${share.unicode} by ${SELLER}`)
    await expect(form.getByLabel(F.title)).toHaveValue(share.title)
    await expect(form.getByLabel(F.price)).toHaveValue('3.50')
    await expect(form.getByLabel('Paid purchases only')).toBeChecked()

    const renamed = `${tag}-new`
    await form.getByLabel(F.title).fill(renamed)
    await form.getByLabel(F.price).fill('0')
    await form.getByRole('button', { name: 'Save' }).click()
    await expectFieldError(form.getByLabel(F.price), 'The price must be between ¥0.01 and ¥10,000.')
    // Still open, with what was typed (JS off: the page came back from the server); nothing stored.
    await expect(page).toHaveURL(`${list}&edit=${share.id}`)
    await expect(form.getByLabel(F.title)).toHaveValue(renamed)
    expect(await sellerShare(api, share.id)).toMatchObject({ title: share.title, price: 3.5 })

    await form.getByLabel(F.price).fill('12.34')
    await form.getByLabel('Open to subscribers').check()
    await form.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, 'Edited Successfully')
    await expect(page).toHaveURL(list)
    await expect(form).toBeHidden()
    const r = row(page, renamed)
    await expect(r).toContainText('¥12.34')
    await expect(r).toContainText('Approved')
    expect(await sellerShare(api, share.id)).toMatchObject({ title: renamed, price: 12.34, subscription_status: 'open', status: 'approved' })

    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByRole('heading', { name: renamed })).toBeVisible()
    await expect(page.getByText('¥12.34', { exact: true })).toBeVisible()
  })

  test('a banned share can still be edited; a stale edit of a deleted share is explained', async ({ page, context, api }) => {
    const tag = uniqueName('adm')
    const share = await createShare(api, { title: `${tag}-old` })
    await setStatus(api, share.id, 'violation')
    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/share-manage?keyword=${tag}`)
    await page.getByRole('link', { name: `Edit ${share.title}` }).click()
    const form = dialog(page, 'Edit share')
    await expect(form).toContainText('This share is banned.')
    await form.getByLabel(F.title).fill(`${tag}-fixed`)
    await form.getByRole('button', { name: 'Save' }).click()
    await expectFlash(page, 'Edited Successfully')
    await expect(row(page, `${tag}-fixed`)).toContainText('Violation')
    expect(await sellerShare(api, share.id)).toMatchObject({ title: `${tag}-fixed`, status: 'violation' })

    // The seller deleted it meanwhile: the API's refusal is stated on the page.
    await api.ok(sharesApi.delete, { token: await api.login(SELLER, DEMO_PASSWORD), query: { id: String(share.id) } })
    const res = await page.request.post(`/system/share-manage?keyword=${tag}&edit=${share.id}`, {
      form: { intent: 'edit', id: String(share.id), title: 'x', price: '1', subscription_status: 'close' },
    })
    expect(res.status()).toBe(400)
    expect(await res.text()).toContain('This share does not exist.')
  })
})

test.describe('orders', () => {
  test.use({ lng: 'en-US' })

  test('the buyer reopens a completed purchase; the seller sees the income', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await createShare(api, { price: 20 })
    await setStatus(api, share.id, 'approved')
    const paid = await buy(api, share.unicode)
    const pending = await buy(api, share.unicode, { pay: false })

    await loginAs(context, BUYER, DEMO_PASSWORD)
    await page.goto('/user/order-list')
    await expect(page.getByRole('heading', { name: 'My orders' })).toBeVisible()
    const paidRow = row(page, paid)
    await expect(paidRow).toContainText('Completed')
    await expect(paidRow).toContainText('¥20.00')
    // Opened through the account: the order number stays out of the URL (decision 102).
    await expect(paidRow.getByRole('link', { name: `Open ${share.title}` })).toHaveAttribute('href', `/share/${share.unicode}`)
    await expect(row(page, pending).getByRole('link', { name: /^Open / })).toHaveCount(0)

    // The status filter is a GET form.
    await page.getByLabel('Status').selectOption('Pending')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/payment_status=Pending/)
    await expect(row(page, pending)).toContainText('Pending')
    await expect(row(page, paid)).toHaveCount(0)

    // The seller's income orders, filtered by the share code.
    await page.context().clearCookies({ name: 'ps_session' })
    await loginAs(context, SELLER, DEMO_PASSWORD)
    await page.goto('/share-manage/order-list')
    await page.getByLabel('Share code').fill(share.unicode)
    await page.getByLabel('Status').selectOption('Completed')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(new RegExp(`unicode=${share.unicode}`))
    // The seller sees its buyers' order numbers masked (decision 102).
    const masked = (no: string) => `${no.slice(0, 16)}********${no.slice(-4)}`
    const income = row(page, masked(paid))
    expect(await page.content()).not.toContain(paid)
    await expect(income).toContainText(BUYER)
    await expect(income).toContainText('¥20.00')
    const order = await adminOrder(api, paid)
    await expect(income).toContainText(`¥${order.seller_income!.toFixed(2)}`)
    await expect(row(page, masked(pending))).toHaveCount(0)
  })

  test('admin refunds a completed order after confirming; a refund that is not allowed is explained', { tag: '@js-off' }, async ({ page, context, api }) => {
    const share = await createShare(api, { price: 6.6 })
    await setStatus(api, share.id, 'approved')
    const orderNo = await buy(api, share.unicode)
    const pending = await buy(api, share.unicode, { pay: false })

    await loginAs(context, 'admin', ADMIN.password)
    await page.goto(`/system/order-manage?unicode=${share.unicode}`)
    await expect(row(page, orderNo)).toContainText('Completed')
    await expect(row(page, pending).getByRole('link', { name: /^Refund/ })).toHaveCount(0)

    await page.getByRole('link', { name: `Refund ${orderNo}` }).click()
    const confirm = dialog(page, 'Refund this order?')
    await expect(confirm).toContainText(orderNo)
    await expect(confirm).toContainText('¥6.60')
    await confirm.getByRole('button', { name: 'Refund' }).click()
    await expectFlash(page, 'The order was refunded.')
    await expect(page).toHaveURL(`/system/order-manage?unicode=${share.unicode}`)
    await expect(row(page, orderNo)).toContainText('Refunded')
    expect((await adminOrder(api, orderNo)).payment_status).toBe('Refund')
    // The gateway (the sandbox) confirmed it at once: nothing left in progress (decision 057).
    await expect(row(page, orderNo)).not.toContainText('Refund in progress')
    await expect(row(page, orderNo).getByRole('button', { name: /^Check refund/ })).toHaveCount(0)
    await page.getByLabel('Refund state').selectOption('done')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/refund_state=done/)
    await expect(row(page, orderNo)).toContainText('Refunded')
    await page.getByLabel('Refund state').selectOption('pending')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/refund_state=pending/)
    await expect(row(page, orderNo)).toHaveCount(0)

    // A stale form for an order that is not completed: the API's 409 is stated on the page.
    const res = await page.request.post(`/system/order-manage?unicode=${share.unicode}`, { form: { intent: 'refund', orderNo: pending } })
    expect(res.status()).toBe(400)
    expect(await res.text()).toContain('Only completed orders can be refunded.')
  })
})
