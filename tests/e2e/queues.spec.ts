// The admin queues worked through in batches (issue 23, decisions 125 and 126): tick several rows, one
// action for all of them, back at the next row; each row shows the share's content and the seller's
// record. With JavaScript on and off.
import type { Page } from '@playwright/test'
import { ordersApi } from '#contract/orders.ts'
import { shareApi, sharesApi } from '#contract/shares.ts'
import { usersApi } from '#contract/users.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { ADMIN } from './env.ts'
import { type Api, expect, expectFlash, loginAs, test, uniqueName } from './fixtures.ts'

/** A seller who may publish: signed up by phone, terms agreed, Alipay details stored. */
async function newSeller(api: Api) {
  const user = await api.createUser('phone', 'q')
  const token = await api.login(user.user_name, user.password)
  await api.ok(usersApi.agreeToTerms, { token })
  await api.ok(usersApi.updateAlipayInfo, { token, body: { alipayRealName: '赵六', alipayAccount: user.phone! } })
  return { ...user, token }
}

const newShare = (api: Api, seller: { token: string }, content: string) =>
  api.ok(sharesApi.new, {
    token: seller.token,
    body: { title: uniqueName('queue'), type: 'text', content, price: 30, subscription_status: 'close' },
  })

/** A visitor buys the share through the sandbox gateway (what the checkout page's Pay button posts). */
async function buy(api: Api, unicode: string) {
  const { payUrl } = await api.ok(ordersApi.create, { body: { unicode, paymentMethod: 'Alipay' } })
  expect(await api.payInSandbox(payUrl)).toBe(303)
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

test.describe('admin queues in batches (zh-CN)', { tag: '@js-off' }, () => {
  test('share review: the content is on the row; two ticked shares approved at once; a row approve says approved; the queue goes on at the next row', async ({ page, context, api }) => {
    const seller = await newSeller(api)
    const [a, b, c] = [await newShare(api, seller, '第一条秘密内容'), await newShare(api, seller, '第二条秘密内容'), await newShare(api, seller, '第三条秘密内容')]
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/share-manage?keyword=${seller.user_name}&status=under_review&sort=created_at&order=asc`)
    // What the admin decides on, without opening the share: its content and the seller's record.
    await expect(row(page, a.title)).toContainText('第一条秘密内容')
    await expect(row(page, a.title).getByTestId('seller-record')).toHaveText('卖家记录：退款 0 · 举报 0 · 下架 0 · 违规分享 0')
    const approve = page.getByRole('button', { name: /^通过所选/ })
    await expect(approve).toHaveAttribute('accesskey', 'a')
    await expect(approve).toContainText('[A]')

    await page.getByRole('checkbox', { name: `选择 ${a.title}` }).check()
    await page.getByRole('checkbox', { name: `选择 ${b.title}` }).check()
    await approve.click()
    await expectFlash(page, '已处理 2 项。')
    await expect(page).toHaveURL(new RegExp(`#item-${c.id}$`))
    await expect(row(page, a.title)).toHaveCount(0)
    await expect(row(page, b.title)).toHaveCount(0)

    // One at a time from its row: the toast says what happened (it said "编辑成功").
    await page.getByRole('button', { name: `通过 ${c.title}` }).click()
    await expectFlash(page, '分享已审核通过。')
    await expect(row(page, c.title)).toHaveCount(0)
    for (const s of [a, b, c]) expect((await api.ok(shareApi.lookup, { query: { unicode: s.unicode } })).status).toBe('approved')
  })

  test('withdrawals: nothing ticked is refused by name; the page selected and marked paid with one transfer number', async ({ page, context, api }) => {
    const seller = await newSeller(api)
    const share = await newShare(api, seller, 'x')
    await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })
    await buy(api, share.unicode) // income ¥28.50
    const ids: number[] = []
    for (const amount of [10, 12]) ids.push((await api.ok(withdrawalsApi.create, { token: seller.token, body: { amount } })).id)
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto(`/system/withdrawal-manage?keyword=${seller.user_name}`)
    await expect(row(page, `¥10.00`).getByTestId('seller-record')).toContainText('退款 0')

    const markPaid = page.getByRole('button', { name: /^标记所选已打款/ })
    await expect(markPaid).toHaveAttribute('accesskey', 'p')
    await page.getByLabel('交易单号', { exact: true }).fill('BATCH20261127')
    await markPaid.click()
    await expect(page.getByText('请至少选择一项。')).toBeVisible()

    // "Select page" is a link: it ticks every row, JavaScript or not.
    await page.getByRole('link', { name: '全选本页' }).click()
    for (const id of ids) await expect(page.getByRole('checkbox', { name: `选择 #${id} ${seller.user_name}` })).toBeChecked()
    await page.getByLabel('交易单号', { exact: true }).fill('BATCH20261127')
    // Enter in the reject reason presses the bar's first button, "mark paid": it used to mark both paid.
    await page.getByLabel('驳回原因（卖家可见）', { exact: true }).fill('x')
    await page.getByLabel('驳回原因（卖家可见）', { exact: true }).press('Enter')
    await expect(page.getByText('已填写驳回原因，未做任何处理：要驳回请按“驳回所选”；要标记已打款请先清空驳回原因。')).toBeVisible()
    const listed = await api.ok(withdrawalsApi.adminList, { token: await api.adminToken(), query: { keyword: seller.user_name } })
    expect(listed.list.filter((w) => ids.includes(w.id)).map((w) => w.status)).toEqual(['Pending', 'Pending'])
    await page.getByLabel('驳回原因（卖家可见）', { exact: true }).fill('')
    for (const id of ids) await expect(page.getByRole('checkbox', { name: `选择 #${id} ${seller.user_name}` })).toBeChecked()
    await page.getByLabel('交易单号', { exact: true }).fill('BATCH20261127')
    await page.getByRole('button', { name: /^标记所选已打款/ }).click()
    await expectFlash(page, '已处理 2 项。')
    for (const amount of ['¥10.00', '¥12.00']) {
      await expect(row(page, amount)).toContainText('已完成')
      await expect(row(page, amount)).toContainText('BATCH20261127')
    }
    await expect(page.getByRole('checkbox', { name: new RegExp(seller.user_name) })).toHaveCount(0)
  })
})
