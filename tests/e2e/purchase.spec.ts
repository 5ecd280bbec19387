// Issue: shares end to end — a share published by the seller and approved by an admin is opened by an
// anonymous visitor by its code, paid in the sandbox gateway, shown, and reopened later from the
// browser's memory and by order number. The journeys through forms run
// with JavaScript on and off (`@js-off`).
import { sharesApi } from '#contract/shares.ts'
import { DEMO_PASSWORD } from './env.ts'
import { type Api, expect, jsDisabled, test } from './fixtures.ts'

const SELLER = 'demo_seller'

async function publishApproved(api: Api, opts: { type?: 'text' | 'url' | 'netdisk'; content?: string; extraction_code?: string; price?: number } = {}) {
  const seller = await api.login(SELLER, DEMO_PASSWORD)
  const secret = opts.content ?? `secret-${Math.random().toString(36).slice(2)} 秘密`
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: `E2E share ${Math.random().toString(36).slice(2, 7)}`, type: opts.type ?? 'text', content: secret, extraction_code: opts.extraction_code, price: opts.price ?? 6.6, subscription_status: 'close' },
  })
  const admin = await api.adminToken()
  await api.ok(sharesApi.adminUpdate, { token: admin, body: { id: share.id, status: 'approved' } })
  return { ...share, secret }
}

test.describe('buying a share as a visitor (zh-CN)', () => {
  test('open by code, pay with Alipay (sandbox), see the content, reopen from the browser and by order number', { tag: '@js-off' }, async ({ page, api, browser }, testInfo) => {
    const share = await publishApproved(api)
    await page.goto('/')
    await expect(page.getByRole('heading', { name: '打开分享' })).toBeVisible()
    await page.getByLabel('分享码、链接或订单号').fill(share.unicode)
    await page.getByRole('button', { name: '打开' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}$`))
    // The share's title, then SPEC §2's code (issue 23: the code alone named nothing).
    await expect(page).toHaveTitle(`${share.title} - ${share.unicode}`)
    await expect(page.getByRole('heading', { name: share.title })).toBeVisible()
    expect(await page.content()).not.toContain(share.secret)
    await expect(page.locator('script[src]')).toHaveCount(0)

    await page.getByLabel('支付宝').check()
    await page.getByRole('button', { name: /购买 ¥6\.60/ }).click()
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await expect(page.getByText('¥6.60')).toBeVisible()
    await page.getByRole('button', { name: /Pay/ }).click()

    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}\\?order=PS\\d{26}$`))
    await expect(page.getByText('支付成功，以下是您购买的内容：')).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveText(share.secret)
    const orderNo = new URL(page.url()).searchParams.get('order')!

    // The browser remembers the purchase, and can reach its after-sales chat (decision 102).
    await page.goto(`/share/${share.unicode}`)
    await expect(page.locator('#secret-content')).toHaveText(share.secret)
    await expect(page.getByRole('link', { name: '购买遇到问题？联系客服' })).toBeVisible()

    // Another browser reopens it by order number on the search page.
    const other = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    const fresh = await other.newPage()
    await fresh.goto(`${new URL(page.url()).origin}/`)
    await fresh.getByLabel('分享码、链接或订单号').fill(orderNo)
    await fresh.getByRole('button', { name: '打开' }).click()
    await expect(fresh.locator('#secret-content')).toHaveText(share.secret)
    // Opening it by order number made that browser remember it too.
    await fresh.goto(`${new URL(page.url()).origin}/share/${share.unicode}`)
    await expect(fresh.locator('#secret-content')).toHaveText(share.secret)
    // The number alone is no proof of being the buyer: no chat from this browser (decision 102).
    await expect(fresh.getByRole('link', { name: '购买遇到问题？联系客服' })).toHaveCount(0)
    await expect(fresh.getByText('如需就此购买联系客服，请在付款的浏览器中打开，或登录购买时使用的账号。')).toBeVisible()
    expect((await fresh.goto(`${new URL(page.url()).origin}/share/${share.unicode}/chat`))?.status()).toBe(404)
    await other.close()
    // A browser without the order number sees no content.
    const stranger = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    const strangerPage = await stranger.newPage()
    await strangerPage.goto(`${new URL(page.url()).origin}/share/${share.unicode}`)
    await expect(strangerPage.getByRole('heading', { name: share.title })).toBeVisible()
    await expect(strangerPage.locator('#secret-content')).toHaveCount(0)
    expect(await strangerPage.content()).not.toContain(share.secret)
    await stranger.close()
  })

  test('a pasted share link opens the share; bad and unknown codes get clear messages', async ({ page, api }) => {
    const share = await publishApproved(api)
    await page.goto('/')
    await page.getByLabel('分享码、链接或订单号').fill(`看看这个 http://example.com/share/${share.unicode}?from=wx`)
    await page.getByRole('button', { name: '打开' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}$`))

    await page.goto('/')
    await page.getByLabel('分享码、链接或订单号').fill('abc')
    await page.getByRole('button', { name: '打开' }).click()
    await expect(page.getByRole('alert')).toHaveText('这不是有效的分享码（8 位字母和数字）、分享链接或订单号。')

    await page.goto('/share/ZZZZZZZZ')
    await expect(page.getByText('没有该分享码对应的分享，请检查后重试。')).toBeVisible()
  })
})

test.describe('a deleted share (zh-CN)', () => {
  test('its buyer still opens what they paid for — from the browser, by code and by order number on /; nobody else finds it', async ({ page, api, browser }, testInfo) => {
    const share = await publishApproved(api)
    await page.goto(`/share/${share.unicode}`)
    await page.getByLabel('支付宝').check()
    await page.getByRole('button', { name: /购买 ¥6\.60/ }).click()
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.locator('#secret-content')).toHaveText(share.secret)
    const orderNo = new URL(page.url()).searchParams.get('order')!
    const origin = new URL(page.url()).origin

    const seller = await api.login(SELLER, DEMO_PASSWORD)
    await api.ok(sharesApi.delete, { token: seller, query: { id: String(share.id) } })

    // The browser that bought it, by the share page and by the code typed on /.
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByRole('heading', { name: share.title })).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveText(share.secret)
    await expect(page.getByRole('button', { name: /购买/ })).toHaveCount(0)
    await page.goto('/')
    await page.getByLabel('分享码、链接或订单号').fill(share.unicode)
    await page.getByRole('button', { name: '打开' }).click()
    await expect(page.locator('#secret-content')).toHaveText(share.secret)

    // Another browser, by the order number on /.
    const other = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    const fresh = await other.newPage()
    await fresh.goto(`${origin}/`)
    await fresh.getByLabel('分享码、链接或订单号').fill(orderNo)
    await fresh.getByRole('button', { name: '打开' }).click()
    await expect(fresh.locator('#secret-content')).toHaveText(share.secret)
    await other.close()

    // Anyone else: the share is gone.
    const stranger = await browser.newContext({ javaScriptEnabled: !jsDisabled(testInfo) })
    const strangerPage = await stranger.newPage()
    const res = await strangerPage.goto(`${origin}/share/${share.unicode}`)
    expect(res?.status()).toBe(404)
    await expect(strangerPage.getByText('没有该分享码对应的分享，请检查后重试。')).toBeVisible()
    expect(await strangerPage.content()).not.toContain(share.secret)
    await stranger.close()
  })
})

test.describe('the share page in one round trip (issue 24)', () => {
  test('its stylesheet comes inside the HTML: nothing else is fetched before the page is styled', { tag: '@js-off' }, async ({ page, api }) => {
    const share = await publishApproved(api)
    const fetched: string[] = []
    page.on('request', (r) => fetched.push(`${r.resourceType()} ${new URL(r.url()).pathname}`))
    const res = await page.goto(`/share/${share.unicode}`)
    const html = await res!.text()
    expect(html).toMatch(/<style nonce="[^"]+">[^<]*\.ps-btn\{/)
    expect(html).not.toContain('rel="stylesheet"')
    expect(fetched.filter((r) => /^(stylesheet|script|font) /.test(r))).toEqual([])
    // Styled by it: the buy button is the stylesheet's blue block, not the browser's default button.
    const buy = page.getByRole('button', { name: /购买 ¥6\.60/ })
    await expect(buy).toHaveCSS('background-color', 'rgb(22, 93, 255)')
    await expect(buy).toHaveCSS('display', 'block')
  })
})

test.describe('visits (issue 6: the visitor id is signed)', () => {
  test('a browser counts once a day, also after dropping or forging its visitor cookie', async ({ page, api, context }) => {
    const share = await publishApproved(api)
    const visits = async () => {
      await page.goto(`/share/${share.unicode}`)
      await expect(page.getByRole('heading', { name: share.title })).toBeVisible()
      return page.getByText(/^浏览: \d+$/).innerText()
    }
    expect(await visits()).toBe('浏览: 1')
    expect(await visits()).toBe('浏览: 1')
    const [issued] = (await context.cookies()).filter((c) => c.name === 'ps_vid')
    expect(issued?.value).toContain('.')
    await context.clearCookies({ name: 'ps_vid' })
    expect(await visits()).toBe('浏览: 1')
    for (const value of [encodeURIComponent(Buffer.from(JSON.stringify('forged-visitor-0000000001')).toString('base64')), 'forged-visitor-0000000002']) {
      await context.clearCookies({ name: 'ps_vid' })
      await context.addCookies([{ name: 'ps_vid', value, url: new URL(page.url()).origin }])
      expect(await visits()).toBe('浏览: 1')
    }
  })
})

test.describe('buying a share as a visitor (en-US)', () => {
  test.use({ lng: 'en-US' })

  test('WeChat Pay: the QR page waits, the sandbox pays, the page moves on to the content', { tag: '@js-off' }, async ({ page, api }) => {
    const share = await publishApproved(api, { type: 'netdisk', content: 'https://pan.example.com/s/e2e-disk', extraction_code: 'k3y9', price: 1 })
    await page.goto(`/share/${share.unicode}`)
    await page.getByLabel('WeChat Pay').check()
    await page.getByRole('button', { name: 'Buy for ¥1.00' }).click()
    await expect(page).toHaveURL(new RegExp(`/share/${share.unicode}/pay\\?order=PS\\d{26}$`))
    await expect(page.getByRole('heading', { name: 'Scan with WeChat to pay' })).toBeVisible()
    await expect(page.getByRole('img', { name: 'Payment QR code' })).toBeVisible()
    await page.getByRole('link', { name: 'Open the payment page' }).click()
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.getByText('Payment confirmed. Here is your content:')).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveText('https://pan.example.com/s/e2e-disk')
    await expect(page.locator('#secret-code')).toHaveText('k3y9')
  })

  test('a cancelled payment leaves the order unpaid and the share for sale; shares in review are not for sale', async ({ page, api }) => {
    const share = await publishApproved(api)
    await page.goto(`/share/${share.unicode}`)
    await page.getByRole('button', { name: /Buy for/ }).click()
    await page.getByRole('button', { name: /Cancel/ }).click()
    await expect(page.getByText('This order was not paid (cancelled or expired after 30 minutes). You can buy again.')).toBeVisible()
    await expect(page.getByRole('button', { name: /Buy for/ })).toBeVisible()
    expect(await page.content()).not.toContain(share.secret)

    const seller = await api.login(SELLER, DEMO_PASSWORD)
    const inReview = await api.ok(sharesApi.new, { token: seller, body: { title: 'In review', type: 'text', content: 'x', price: 2 } })
    await page.goto(`/share/${inReview.unicode}`)
    await expect(page.getByText('This share is under review and cannot be bought yet.')).toBeVisible()
    await expect(page.getByRole('button', { name: /Buy for/ })).toHaveCount(0)
  })
})
