// Issue 11: the console's date fields follow the console's language, not the browser's: a text field in
// the console's date format (YYYY-MM-DD) with its hint and its message in the page's language, that also
// reads the usual ways of typing a date — in English without JavaScript, in Chinese with it.
import { ADMIN } from './env.ts'
import { expect, expectFieldError, loginAs, setLocale, test } from './fixtures.ts'

/** Today in Asia/Shanghai (the console's day), as YYYY-MM-DD. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())

const UI = {
  'en-US': { from: 'From', to: 'To', search: 'Search', placeholder: 'yyyy-mm-dd', invalid: 'Enter a date as yyyy-mm-dd, for example 2026-01-31.' },
  'zh-CN': { from: '开始日期', to: '结束日期', search: '查询', placeholder: '年-月-日', invalid: '请按 年-月-日 输入日期，例如 2026-01-31。' },
} as const

for (const lng of ['en-US', 'zh-CN'] as const) {
  test(`date filters in ${lng}: typed as people type them, shown in the console's format, a non-date is refused at the field`, { tag: lng === 'en-US' ? ['@js-off-only'] : [] }, async ({ page, context }) => {
    const ui = UI[lng]
    await setLocale(context, lng)
    await loginAs(context, ADMIN.username, ADMIN.password)
    await page.goto('/system/login-record')
    const from = page.getByRole('textbox', { name: ui.from, exact: true })
    const to = page.getByRole('textbox', { name: ui.to, exact: true })
    await expect(from).toHaveAttribute('placeholder', ui.placeholder)
    // Not the browser's own date input, whose format and words are the browser's.
    expect(await from.evaluate((el) => (el as HTMLInputElement).type)).toBe('text')

    // Today typed with slashes and no leading zeros: read as today, shown back as YYYY-MM-DD.
    const [y, m, d] = today().split('-').map(Number)
    await from.fill(`${y}/${m}/${d}`)
    await to.fill(`${y}年${m}月${d}日`)
    await page.getByRole('button', { name: ui.search, exact: true }).click()
    await expect(page).toHaveURL(/from=/)
    await expect(from).toHaveValue(today())
    await expect(to).toHaveValue(today())
    // The admin's own login of this test is today's.
    await expect(page.locator('table tbody tr').first()).toContainText(today())

    // A day that does not exist: said at the field, kept as typed, nothing filtered by it.
    await from.fill('2026-02-30')
    await to.fill('')
    await page.getByRole('button', { name: ui.search, exact: true }).click()
    await expect(page).toHaveURL(/from=2026-02-30/)
    await expectFieldError(from, ui.invalid)
    await expect(from).toHaveValue('2026-02-30')
    await expect(page.locator('table tbody tr').first()).toBeVisible()
  })
}
