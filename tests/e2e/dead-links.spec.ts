// Issue 25: dead links end to end, with JavaScript on and off (`@js-off`). The e2e API runs with
// LINK_CHECK_ALLOW_PRIVATE=1 and DEAD_LINK_FIX_HOURS=0 (playwright.config.ts), and each test serves its
// links from a local fixture server on 127.0.0.1 — never the internet.
import { linksApi } from '#contract/links.ts'
import { sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { LinkFixture } from '../../server/test/fakes/link-fixture.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, expectFlash, loginAs, openPage, setLocale, test, type TestUser, uniqueName } from './fixtures.ts'

let web: LinkFixture
test.beforeAll(async () => {
  web = await LinkFixture.start()
})
test.afterAll(async () => {
  await web?.stop()
})

/** A seller allowed to publish (signed up by phone, terms agreed) with an approved url share on the fixture. */
async function sellerWithLink(api: Api): Promise<{ seller: TestUser & { token: string }; share: { id: number; unicode: string; title: string }; path: string }> {
  const user = await api.createUser('phone', 'dl')
  const token = await api.login(user.user_name, user.password)
  await api.ok(usersApi.agreeToTerms, { token })
  const path = `/e2e/${uniqueName('link')}`
  web.page(path, '<html>report.pdf</html>')
  const share = await api.ok(sharesApi.new, { token, body: { title: uniqueName('Linked'), type: 'url', content: web.url(path), price: 3.5, subscription_status: 'close' } })
  const admin = await api.adminToken()
  // The check on publish runs in the background: its result is in before the test changes the page.
  await expect.poll(async () => (await api.ok(linksApi.history, { token: admin, query: { id: share.id } })).list.map((c) => c.result)).toEqual(['ok'])
  await api.ok(sharesApi.adminUpdate, { token: admin, body: { id: share.id, status: 'approved' } })
  return { seller: { ...user, token }, share, path }
}

test.describe('dead links', () => {
  test('a seller\'s link dies: two checks stop the sales, the seller is told, an edit puts it back on sale', { tag: '@js-off' }, async ({ page, api, browser }, testInfo) => {
    const { seller, share, path } = await sellerWithLink(api)
    web.page(path, 'gone', 404)
    // The admin checks it twice on the Dead links page.
    const adminContext = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false })
    await setLocale(adminContext, 'en-US')
    await loginAs(adminContext, ADMIN.username, ADMIN.password)
    const adminPage = await openPage(adminContext, testInfo.project.use.javaScriptEnabled !== false)
    await adminPage.goto(`/system/dead-links?seller=${seller.user_name}`)
    await expect(adminPage.getByRole('heading', { name: 'Dead links' })).toBeVisible()
    const row = adminPage.locator(`#link-${share.id}`)
    await row.getByRole('button', { name: `Check now ${share.title}` }).click()
    await expectFlash(adminPage, 'Checked: Dead')
    await expect(row.locator('[data-link-state]')).toHaveText('Dead')
    await row.getByRole('button', { name: `Check now ${share.title}` }).click()
    await expectFlash(adminPage, 'Checked: Sales stopped')
    await expect(row.locator('[data-link-state]')).toHaveText('Sales stopped')
    await row.getByRole('link', { name: `History ${share.title}` }).click()
    const history = adminPage.getByRole('region', { name: `Check history of ${share.title}` })
    await expect(history).toBeVisible()
    await expect(history.getByRole('cell', { name: 'http_404' })).toHaveCount(2)
    await expect(history.getByRole('cell', { name: 'Publish' })).toHaveCount(1)
    await adminContext.close()

    // Buyers see that the link is being fixed, with nothing to buy.
    await setLocale(page.context(), 'en-US')
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByText("This share's link stopped working and the seller is fixing it")).toBeVisible()
    await expect(page.getByRole('button', { name: /Buy for/ })).toHaveCount(0)

    // The seller is told, with the way to the edit page; its list shows the link's state.
    await loginAs(page.context(), seller)
    await page.goto('/user/my-message')
    const editLink = page.getByRole('link', { name: new RegExp(`/share-manage/edit/${share.id}$`) }).first()
    await expect(editLink).toBeVisible()
    expect(new URL((await editLink.getAttribute('href'))!).pathname).toBe(`/share-manage/edit/${share.id}`)
    await page.goto('/share-manage/search-table')
    await expect(page.locator('[data-link-state="stopped"]')).toBeVisible()
    await page.goto(`/share-manage/edit/${share.id}`)
    web.page(`${path}-fixed`, '<html>report.pdf</html>')
    await page.getByLabel(/^Link/).fill(web.url(`${path}-fixed`))
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/share-manage\/search-table$/)
    await expect(page.locator('[data-link-state="ok"]')).toBeVisible()
    // Back on sale, still approved: no new review.
    const after = await api.ok(sharesApi.detail, { token: seller.token, query: { id: share.id } })
    expect(after).toMatchObject({ status: 'approved', for_sale: true })
    // A visitor (not the seller, who sees its own content) can buy it again.
    await page.context().clearCookies()
    await setLocale(page.context(), 'en-US')
    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByRole('button', { name: /Buy for/ })).toBeVisible()
  })

  test('the buyer of a dead link asks a refund in one click and the content is hidden after it', { tag: '@js-off' }, async ({ page, api }) => {
    const { share, path } = await sellerWithLink(api)
    await setLocale(page.context(), 'en-US')
    await page.goto(`/share/${share.unicode}`)
    await page.getByRole('button', { name: /Buy for/ }).click()
    await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout/)
    await page.getByRole('button', { name: /Pay/ }).click()
    await expect(page.getByText('Payment confirmed. Here is your content:')).toBeVisible()
    await expect(page.locator('#secret-content')).toContainText(path)

    web.page(path, 'gone', 410)
    const admin = await api.adminToken()
    await api.ok(linksApi.checkNow, { token: admin, body: { id: share.id } })
    const stopped = await api.ok(linksApi.checkNow, { token: admin, body: { id: share.id } })
    expect(stopped.for_sale).toBe(false)

    await page.goto(`/share/${share.unicode}`)
    await expect(page.getByText('This link is known to be dead.')).toBeVisible()
    await expect(page.getByText(/The seller was told on \d{4}-\d{2}-\d{2}/)).toBeVisible()
    await page.getByRole('button', { name: 'Request a refund' }).click()
    await expect(page.getByText('Refunded: the money goes back the way you paid.')).toBeVisible()
    await expect(page.getByText('This order was refunded; the content is no longer available to it.')).toBeVisible()
    await expect(page.locator('#secret-content')).toHaveCount(0)
    expect(await page.content()).not.toContain(path)
  })
})
