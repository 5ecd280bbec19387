// QQ / WeChat login, bind and unbind (issue 12) through the sandbox consent page, each journey in one
// language with JavaScript and in the other without (`@js-off-only`).
import type { Page } from '@playwright/test'
import { ADMIN } from './env.ts'
import { expect, expectFlash, jsDisabled, loginAs, test, uniqueName, watchToasts } from './fixtures.ts'

const UI = {
  'zh-CN': {
    qq: 'QQ 登录',
    wechat: '微信登录',
    userName: '用户名',
    create: '创建账号并登录',
    bindWechat: '绑定微信',
    bound: '绑定成功。',
    welcome: '欢迎使用',
    unbind: '解除绑定',
    unbound: '已解除绑定。',
    lastLogin: '无法解除绑定：这是该账号唯一的登录方式。请先设置密码。',
    logout: '退出登录',
    username: '用户名、邮箱或手机号',
    password: '密码',
    link: '关联并登录',
    stateInvalid: '本次登录请求已过期、已使用或在其他浏览器中发起，请重新开始。',
    notBound: '未绑定',
    isBound: '已绑定',
  },
  'en-US': {
    qq: 'Log in with QQ',
    wechat: 'Log in with WeChat',
    userName: 'User name',
    create: 'Create account and log in',
    bindWechat: 'Bind WeChat',
    bound: 'Bound.',
    welcome: 'welcome to use',
    unbind: 'Unbind',
    unbound: 'Unbound.',
    lastLogin: 'It cannot be unbound: it is the only way to log in to this account. Set a password first.',
    logout: 'Log out',
    username: 'User name, email or phone',
    password: 'Password',
    link: 'Link and log in',
    stateInvalid: 'This login request has expired, was already used or was started in another browser. Please start again.',
    notBound: 'Not bound',
    isBound: 'Bound',
  },
} as const

/** On the sandbox consent page (served by the API): a test identity by name, then Allow. */
async function consentAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/api\/oauth\/sandbox\/authorize\?/)
  await page.getByLabel(/Name/).fill(name)
  await page.getByRole('button', { name: /Allow/ }).click()
}

async function logOut(page: Page, label: string) {
  await page.getByRole('button', { name: label }).click()
  await expect(page).toHaveURL('/login')
}

async function expectLoggedInAs(page: Page, userName: string) {
  await page.goto('/user/setting')
  await expect(page.locator('input[name="user_name"]').first()).toHaveValue(userName)
}

for (const lng of ['zh-CN', 'en-US'] as const) {
  test.describe(`QQ / WeChat login (${lng})`, () => {
    test.use({ lng })
    const ui = UI[lng]
    test('first QQ login creates an account, QQ logs in to it again; bind WeChat, log in with it, unbind', { tag: lng === 'zh-CN' ? ['@js-off-only'] : [] }, async ({ page }, testInfo) => {
      // A long journey (three consent round trips), and with JavaScript it waits for the page to settle twice.
      test.slow()
      const tag = `${testInfo.project.name}-${lng}-${Date.now().toString(36)}`
      // The most toast cards of one text on screen at once over the whole visit: a toast that came with a
      // redirect showed twice with JavaScript (issue 23: the welcome after QQ/WeChat login, "Bound.").
      const mostToasts = await watchToasts(page)
      const shownOnce = async (text: string) => {
        if (jsDisabled(testInfo)) return
        const shown = () => mostToasts(text)
        await expect.poll(shown).toBe(1)
        // Once the rest of the catalogs have arrived after hydration (what showed it again).
        await page.waitForLoadState('networkidle')
        expect(await shown(), `"${text}" shown once`).toBe(1)
      }
      const qqName = `QQ ${tag}`
      const wxName = `WX ${tag}`
      const userName = uniqueName('qq')

      await page.goto('/login')
      await page.getByRole('button', { name: ui.qq }).click()
      await consentAs(page, qqName)
      // Unknown identity: bind to an existing account or create one.
      await expect(page).toHaveURL('/login/qq')
      await expect(page.getByText(qqName)).toBeVisible()
      await page.getByRole('textbox', { name: ui.userName, exact: true }).fill(userName)
      // The terms checkbox is required, as at sign-up.
      await page.getByRole('button', { name: ui.create }).click()
      await expect(page).toHaveURL('/login/qq')
      await page.getByRole('checkbox').check()
      await page.getByRole('button', { name: ui.create }).click()
      await expect(page).toHaveURL(/\/dashboard\/workplace$/)
      await shownOnce(ui.welcome)
      await expectLoggedInAs(page, userName)
      await logOut(page, ui.logout)

      // The same QQ identity lands on the same account.
      await page.getByRole('button', { name: ui.qq }).click()
      await consentAs(page, qqName)
      await expect(page).toHaveURL(/\/dashboard\/workplace$/)
      await expectLoggedInAs(page, userName)

      // Bind WeChat from the settings.
      const wechat = page.getByTestId('binding-wechat')
      await expect(wechat).toContainText(ui.notBound)
      await wechat.getByRole('button', { name: ui.bindWechat }).click()
      await consentAs(page, wxName)
      await expect(page).toHaveURL(/\/user\/setting/)
      await expectFlash(page, ui.bound)
      await shownOnce(ui.bound)
      await expect(page.getByTestId('binding-wechat')).toContainText(ui.isBound)
      await expect(page.getByTestId('binding-wechat')).toContainText(wxName)
      await logOut(page, ui.logout)

      // Log in with WeChat.
      await page.getByRole('button', { name: ui.wechat }).click()
      await consentAs(page, wxName)
      await expect(page).toHaveURL(/\/dashboard\/workplace$/)
      await expectLoggedInAs(page, userName)

      // Unbind WeChat; the QQ binding is the account's last way in (no password), so it stays.
      await page.getByTestId('binding-wechat').getByRole('button', { name: new RegExp(ui.unbind) }).click()
      await expectFlash(page, ui.unbound)
      await expect(page.getByTestId('binding-wechat')).toContainText(ui.notBound)
      await page.getByTestId('binding-qq').getByRole('button', { name: new RegExp(ui.unbind) }).click()
      await expectFlash(page, ui.lastLogin)
      await expect(page.getByTestId('binding-qq')).toContainText(ui.isBound)
    })

    test('an unknown WeChat identity binds to an existing account with its password once', { tag: lng === 'en-US' ? ['@js-off-only'] : [] }, async ({ page, api }, testInfo) => {
      const user = await api.createUser('email', 'wxb')
      const wxName = `WX ${testInfo.project.name}-${lng}-${Date.now().toString(36)}`
      await page.goto('/login/wechat')
      await page.getByRole('button', { name: ui.wechat }).click()
      await consentAs(page, wxName)
      await expect(page).toHaveURL('/login/wechat')
      await page.getByLabel(ui.username).fill(user.user_name)
      await page.getByRole('textbox', { name: ui.password, exact: true }).fill('Wrong#pass1')
      await page.getByRole('button', { name: ui.link }).click()
      await expect(page.getByRole('alert').filter({ hasText: lng === 'zh-CN' ? '用户名或密码错误' : 'Wrong user name or password' })).toBeVisible()
      await page.getByRole('textbox', { name: ui.password, exact: true }).fill(user.password)
      await page.getByRole('button', { name: ui.link }).click()
      await expect(page).toHaveURL(/\/dashboard\/workplace$/)
      await logOut(page, ui.logout)
      await page.getByRole('button', { name: ui.wechat }).click()
      await consentAs(page, wxName)
      await expect(page).toHaveURL(/\/dashboard\/workplace$/)
      await expectLoggedInAs(page, user.user_name)
    })

    test('a callback with a missing or forged state is refused', async ({ page }) => {
      await page.goto('/login/qq?code=abc&state=forged')
      await expect(page).toHaveURL('/login/qq')
      await expectFlash(page, ui.stateInvalid)
      await page.goto('/login/wechat?code=abc')
      await expectFlash(page, ui.stateInvalid)
      await expect(page.getByRole('button', { name: ui.wechat })).toBeVisible()
    })
  })
}

test('the login-record page shows how each login happened', async ({ page, context, api }) => {
  const user = await api.createUser('email', 'rec')
  await api.login(user.user_name, user.password)
  await loginAs(context, ADMIN.username, ADMIN.password)
  await page.goto(`/system/login-record?keyword=${user.user_name}`)
  await expect(page.getByRole('columnheader', { name: '登录方式' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: user.user_name }).first()).toContainText('密码')
})
