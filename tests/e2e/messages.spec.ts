// Issue 10: after-sales chat, private messages and notifications, with JavaScript on and off. A visitor
// buys in the sandbox, opens a chat from the share page, the admin answers (the visitor sees it live
// with JS, on reload without), refunds the order from the chat and closes it. Issue 20 (decision 102):
// the chat is the buyer's — the seller, with its sales list or even the whole order number, gets none of
// it; a signed-in buyer reaches its chat through its account.
import { chatApi, EVENTS_PATH } from '#contract/messages.ts'
import { ordersApi } from '#contract/orders.ts'
import { sharesApi } from '#contract/shares.ts'
import { API_URL, DEMO_PASSWORD } from './env.ts'
import { type Api, expect, jsDisabled, loginAs, openPage, setLocale, test } from './fixtures.ts'
import { ADMIN } from './env.ts'

async function publishApproved(api: Api) {
  const seller = await api.login('demo_seller', DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: `Chat share ${Math.random().toString(36).slice(2, 7)}`, type: 'text', content: 'chat secret', price: 3.3, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
  return share
}

test.describe('after-sales chat (en-US)', () => {
  test('a visitor buys, opens a chat from the share page; the admin answers, refunds and closes it', { tag: '@js-off' }, async ({ page, api, browser }, testInfo) => {
    const noJs = jsDisabled(testInfo)
    await setLocale(page.context(), 'en-US')
    const share = await publishApproved(api)
    await page.goto(`/share/${share.unicode}`)
    await page.getByLabel('Alipay').check()
    await page.getByRole('button', { name: /Buy for ¥3\.30/ }).click()
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.locator('#secret-content')).toHaveText('chat secret')

    await page.getByRole('link', { name: 'Problem with this purchase? Contact support' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}/chat$`))
    await page.getByRole('button', { name: 'Open chat' }).click()
    await expect(page.getByTestId('chat-status')).toHaveText('Pending')
    // Bad input: a clear message, nothing sent (the browser's own checks are skipped to reach the server's).
    await page.locator('#chat-content').evaluate((el) => el.removeAttribute('required'))
    await page.locator('#chat-content').fill('   ')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Please enter a message.')
    await page.locator('#chat-content').fill('I paid but the text is wrong. See https://example.com/proof')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(page.getByTestId('chat-line')).toHaveCount(1)
    await expect(page.getByRole('link', { name: 'https://example.com/proof' })).toHaveAttribute('href', 'https://example.com/proof')

    // The admin finds the chat in message-manage (chats tab) with the order's evidence.
    const adminContext = await browser.newContext({ javaScriptEnabled: !noJs })
    await setLocale(adminContext, 'en-US')
    await loginAs(adminContext, ADMIN.username, ADMIN.password)
    const admin = await openPage(adminContext, !noJs)
    await admin.goto('/system/message-manage?tab=chats&status=pending')
    const row = admin.getByTestId('chat-row').filter({ hasText: share.title })
    await expect(row).toHaveCount(1)
    await row.getByRole('link', { name: 'Answer' }).click()
    await expect(admin.getByTestId('chat-evidence')).toContainText('Completed')
    await expect(admin.getByTestId('chat-evidence')).toContainText('Visitor (no account)')
    await admin.getByRole('textbox', { name: 'Message', exact: true }).fill('We are checking your order.')
    await admin.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(admin.getByTestId('chat-lines')).toContainText('We are checking your order.')
    await expect(admin.getByTestId('chat-status')).toHaveText('Processing')

    // The visitor sees the answer: live with JavaScript, on reload without.
    if (noJs) await page.reload()
    await expect(page.getByTestId('chat-lines')).toContainText('We are checking your order.')

    // Refund from the chat (the existing admin refund), then close.
    await admin.getByRole('link', { name: 'Refund order' }).click()
    // A Mantine modal (role dialog) with JavaScript, a section of the page (role alertdialog) without.
    await admin.getByRole('alertdialog').or(admin.getByRole('dialog')).getByRole('button', { name: 'Refund order' }).click()
    await expect(admin.getByTestId('chat-evidence')).toContainText('Refunded')
    await admin.getByRole('combobox', { name: 'Status' }).selectOption('closed')
    await admin.getByRole('button', { name: 'Change status' }).click()
    await expect(admin.getByTestId('chat-status')).toHaveText('Closed')
    await adminContext.close()

    // With JavaScript the closing arrives live: waited for first, since a reload at the moment of that
    // revalidation is aborted (net::ERR_ABORTED, seen once in CI). Then a reload shows it too.
    if (!noJs) await expect(page.getByText('This chat is closed.')).toBeVisible()
    await page.reload()
    await expect(page.getByText('This chat is closed.')).toBeVisible()
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByText('This order was refunded', { exact: false }).or(page.locator('.ps-alert-warn'))).toBeVisible()
  })

  test('another browser without the purchase cannot open the chat', async ({ page, api }) => {
    const share = await publishApproved(api)
    const res = await page.goto(`/share/${share.unicode}/chat`)
    expect(res?.status()).toBe(404)
    expect((await page.request.get('/events?share=' + share.unicode)).status()).toBe(404)
  })

  test('the seller sees the order number masked in its sales, and even with the whole number gets no chat', async ({ page, api, browser }, testInfo) => {
    test.setTimeout(180_000)
    const noJs = jsDisabled(testInfo)
    await setLocale(page.context(), 'en-US')
    const share = await publishApproved(api)
    await page.goto(`/share/${share.unicode}`)
    await page.getByRole('button', { name: /Buy for ¥3\.30/ }).click()
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.locator('#secret-content')).toHaveText('chat secret')
    const orderNo = new URL(page.url()).searchParams.get('order')!
    await page.getByRole('link', { name: 'Problem with this purchase? Contact support' }).click()
    await page.getByRole('button', { name: 'Open chat' }).click()
    await page.locator('#chat-content').fill('Only my browser may read this.')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(page.getByTestId('chat-line')).toHaveCount(1)

    const sellerContext = await browser.newContext({ javaScriptEnabled: !noJs })
    await setLocale(sellerContext, 'en-US')
    await loginAs(sellerContext, 'demo_seller', DEMO_PASSWORD)
    const seller = await openPage(sellerContext, !noJs)
    await seller.goto(`/share-manage/order-list?unicode=${share.unicode}`)
    const masked = `${orderNo.slice(0, 16)}********${orderNo.slice(-4)}`
    await expect(seller.getByRole('row').filter({ hasText: masked })).toHaveCount(1)
    expect(await seller.content()).not.toContain(orderNo)
    // The whole number, as if it leaked: the content is the seller's own, the chat is not.
    await seller.goto(`/share/${share.unicode}?order=${orderNo}`)
    await expect(seller.locator('#secret-content')).toHaveText('chat secret')
    await expect(seller.getByRole('link', { name: 'Problem with this purchase? Contact support' })).toHaveCount(0)
    const chat = await seller.goto(`/share/${share.unicode}/chat`)
    expect(chat?.status()).toBe(404)
    await expect(seller.getByText('No purchase of this share was found for this browser or your account.', { exact: false })).toBeVisible()
    expect((await seller.request.get(`/events?share=${share.unicode}`)).status()).toBe(404)
    // Straight at the API with its token: what an unknown order gets.
    const token = await api.login('demo_seller', DEMO_PASSWORD)
    const details = await api.call(chatApi.list, { token, query: { order_no: orderNo } })
    expect(details.data).toMatchObject({ list: [], total: 0 })
    expect((await fetch(`${API_URL}${EVENTS_PATH}?order_no=${orderNo}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404)
    await sellerContext.close()

    // The buyer's chat is untouched, and still the buyer's.
    await page.reload()
    await expect(page.getByTestId('chat-line')).toHaveCount(1)
    await expect(page.getByTestId('chat-status')).toHaveText('Pending')
  })

  test('a signed-in buyer reaches the chat of its purchase from the share page, through its account', async ({ page, api }) => {
    await setLocale(page.context(), 'en-US')
    const share = await publishApproved(api)
    const buyer = await api.createUser('email', 'chb')
    const token = await api.login(buyer.user_name, buyer.password)
    // Bought in another browser (through the API): this one holds no purchase, only the session.
    const { payUrl } = await api.ok(ordersApi.create, { token, body: { unicode: share.unicode, paymentMethod: 'Alipay' } })
    expect(await api.payInSandbox(payUrl)).toBe(303)
    await loginAs(page.context(), buyer)
    await page.goto(`/share/${share.unicode}`)
    await expect(page.locator('#secret-content')).toHaveText('chat secret')
    await page.getByRole('link', { name: 'Problem with this purchase? Contact support' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}/chat$`))
    // The walk (issue 23): this page said no purchase was found and offered "Log in" to a signed-in buyer.
    await expect(page.getByText(/^No purchase of this share was found/)).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Log in', exact: true })).toHaveCount(0)
    await page.getByRole('button', { name: 'Open chat' }).click()
    await page.locator('#chat-content').fill('Bought with my account.')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(page.getByTestId('chat-lines')).toContainText('Bought with my account.')
    // The same chat is on its account's messages page.
    const mine = await api.ok(chatApi.list, { token })
    expect(mine.list.map((c) => c.order.product_name)).toEqual([share.title])
  })
})

test.describe('messages and notifications (zh-CN)', () => {
  test('the admin writes to a user and publishes a notification; the user sees the unread count, reads, replies and marks all read', { tag: '@js-off' }, async ({ page, api, browser }, testInfo) => {
    const user = await api.createUser('email', 'msg')
    const adminContext = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    await loginAs(adminContext, ADMIN.username, ADMIN.password)
    const admin = await openPage(adminContext, !jsDisabled(testInfo))

    // A private message by user name, with bad input first.
    await admin.goto('/system/message-manage')
    await admin.getByRole('textbox', { name: '用户名', exact: true }).fill('no_such_user_here')
    await admin.getByRole('textbox', { name: '消息', exact: true }).fill('你好')
    await admin.getByRole('button', { name: '发送' }).click()
    await expect(admin.getByText('没有该用户名的用户。')).toBeVisible()
    await admin.getByRole('textbox', { name: '用户名', exact: true }).fill(user.user_name)
    await admin.getByRole('textbox', { name: '消息', exact: true }).fill('您的分享已通过审核 https://example.com/a')
    await admin.getByRole('button', { name: '发送' }).click()
    await expect(admin.getByText(`与 ${user.user_name} 的对话`)).toBeVisible()

    // A notification, with a missing title first.
    const title = `维护通知 ${Math.random().toString(36).slice(2, 6)}`
    await admin.goto('/system/notification-list?create=1')
    await admin.getByLabel('优先级').fill('5')
    await admin.getByLabel('内容').fill('今晚维护')
    await admin.getByRole('button', { name: '保存' }).click()
    await expect(admin.getByText('请输入标题。')).toBeVisible()
    await admin.getByLabel('标题').fill(title)
    await admin.getByRole('button', { name: '保存' }).click()
    await expect(admin.getByTestId('notification-row').filter({ hasText: title })).toHaveCount(1)
    await adminContext.close()

    await loginAs(page.context(), user)
    await page.goto('/dashboard/workplace')
    await expect(page.getByTestId('unread-count')).toBeVisible()
    await page.getByTestId('unread-badge').click()
    await expect(page).toHaveURL(/\/user\/my-message$/)
    await expect(page.getByTestId('private-message').first()).toContainText('您的分享已通过审核')
    await expect(page.getByRole('link', { name: 'https://example.com/a' })).toBeVisible()
    await page.getByLabel('给客服留言').fill('谢谢！')
    await page.getByRole('button', { name: '发送' }).click()
    await expect(page.getByTestId('private-message').first()).toContainText('谢谢！')
    await page.getByRole('tab', { name: '系统通知' }).click()
    await expect(page.getByTestId('notification').filter({ hasText: title })).toContainText('新')
    await page.getByRole('button', { name: '全部标为已读' }).click()
    await expect(page.getByTestId('unread-count')).toHaveCount(0)
    await expect(page.getByTestId('notification').filter({ hasText: title })).not.toContainText('新')
  })
})
