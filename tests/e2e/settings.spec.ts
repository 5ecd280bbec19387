// User settings (/user/setting): profile, password, security phone, Alipay account, terms — each checked
// on the page and in what the API then returns, and on the workplace checklist where it counts.
import type { Page } from '@playwright/test'
import { authApi } from '#contract/auth.ts'
import { usersApi } from '#contract/users.ts'
import { expect, expectFieldError, expectFlash, type Lng, login, loginAs, strongPassword, test, uniqueEmail, uniquePhone } from './fixtures.ts'

const UI = {
  'zh-CN': {
    sections: { profile: '基本信息', password: '登录密码', phone: '安全手机', alipay: '支付宝收款账号', terms: '分享免责声明' },
    profile: /^个人简介/,
    userName: /^用户名/,
    save: '保存',
    saved: '保存成功',
    profileMax: '不能超过200字',
    oldPassword: /^当前密码/,
    newPassword: /^新密码/,
    confirm: /^确认密码/,
    changePassword: '修改密码',
    passwordChanged: '密码已修改，其他登录会话已退出。',
    oldPasswordWrong: '当前密码错误。',
    logout: '退出登录',
    phone: /^手机号/,
    code: /^验证码/,
    sendCode: '发送验证码',
    bindPhone: '绑定手机',
    codeInvalid: '验证码错误或已过期。',
    bound: '已绑定',
    notBound: '未绑定',
    currentPhone: '当前安全手机',
    realName: /^真实姓名/,
    alipayAccount: /^支付宝账号/,
    alipayFormat: '支付宝账号为开户时使用的手机号或邮箱。',
    agreeTerms: '我已阅读并同意免责声明',
    termsAgreed: '您已同意免责声明。',
    agreed: '已同意',
    notAgreed: '未同意',
    steps: { phone: '绑定安全手机', terms: '同意分享免责声明', alipay: '填写支付宝收款账号' },
    done: '已完成',
    todo: '待完成',
    remaining: (n: number) => `还剩 ${n} 步`,
    allDone: '已全部完成',
  },
  'en-US': {
    sections: { profile: 'Basic information', password: 'Password', phone: 'Security phone', alipay: 'Alipay account', terms: 'Sharing disclaimer' },
    profile: /^Profile/,
    userName: /^User name/,
    save: 'Save',
    saved: 'Save Success',
    profileMax: 'No more than 200 words',
    oldPassword: /^Current password/,
    newPassword: /^New password/,
    confirm: /^Confirm password/,
    changePassword: 'Change password',
    passwordChanged: 'Password changed. Other sessions have been logged out.',
    oldPasswordWrong: 'The current password is wrong.',
    logout: 'Log out',
    phone: /^Phone number/,
    code: /^Verification code/,
    sendCode: 'Send code',
    bindPhone: 'Bind phone',
    codeInvalid: 'The verification code is wrong or has expired.',
    bound: 'Bound',
    notBound: 'Not bound',
    currentPhone: 'Current security phone',
    realName: /^Real name/,
    alipayAccount: /^Alipay account/,
    alipayFormat: 'The Alipay account is the phone number or email it was opened with.',
    agreeTerms: 'I have read and agree to the disclaimer',
    termsAgreed: 'You have agreed to the disclaimer.',
    agreed: 'Agreed',
    notAgreed: 'Not agreed',
    steps: { phone: 'Bind a security phone', terms: 'Agree to the sharing disclaimer', alipay: 'Store your Alipay account' },
    done: 'Done',
    todo: 'To do',
    remaining: (n: number) => (n === 1 ? '1 step left' : `${n} steps left`),
    allDone: 'All done',
  },
} as const

const section = (page: Page, lng: Lng, name: keyof (typeof UI)['zh-CN']['sections']) =>
  page.getByRole('region', { name: UI[lng].sections[name], exact: true })

/** A step of the workplace checklist, by its title. */
const step = (page: Page, lng: Lng, name: keyof (typeof UI)['zh-CN']['steps']) => page.getByRole('listitem').filter({ hasText: UI[lng].steps[name] })

for (const lng of ['zh-CN', 'en-US'] as const) {
  // Every settings form in Chinese without JavaScript, in English with it (decision 108).
  test.describe(`settings (${lng})`, { tag: lng === 'zh-CN' ? ['@js-off-only'] : [] }, () => {
    test.use({ lng })
    const ui = UI[lng]

    test('profile: more than 200 characters is refused, 200 are saved', async ({ page, context, api }) => {
      const user = await api.createUser('email', 'prof')
      await loginAs(context, user)
      await page.goto('/user/setting')
      await section(page, lng, 'profile').getByLabel(ui.profile).fill('长'.repeat(201))
      await section(page, lng, 'profile').getByRole('button', { name: ui.save }).click()
      await expectFieldError(section(page, lng, 'profile').getByLabel(ui.profile), ui.profileMax)
      expect((await api.adminGetUser(user.id)).profile).toBe('')

      const text = `${lng} profile `.padEnd(200, 'é')
      await section(page, lng, 'profile').getByLabel(ui.profile).fill(text)
      await section(page, lng, 'profile').getByRole('button', { name: ui.save }).click()
      await expectFlash(page, ui.saved)
      await expect(page).toHaveURL(/\/user\/setting(#profile)?$/)
      expect((await api.adminGetUser(user.id)).profile).toBe(text)
      await page.reload()
      await expect(section(page, lng, 'profile').getByLabel(ui.profile)).toHaveValue(text)
      // The user name is required too (SPEC §5 settings).
      await section(page, lng, 'profile').getByLabel(ui.userName).fill('')
      await section(page, lng, 'profile').getByRole('button', { name: ui.save }).click()
      await expectFieldError(section(page, lng, 'profile').getByLabel(ui.userName), lng === 'zh-CN' ? '用户名不能为空' : 'Username cannot be empty')
      // A taken name is said once, at the field: no alert above the button, no toast (issue 13).
      const taken = lng === 'zh-CN' ? '该用户名已被使用。' : 'This user name is already taken.'
      await section(page, lng, 'profile').getByLabel(ui.userName).fill('demo_seller')
      await section(page, lng, 'profile').getByRole('button', { name: ui.save }).click()
      await expectFieldError(section(page, lng, 'profile').getByLabel(ui.userName), taken)
      await expect(page.getByText(taken)).toHaveCount(1)
      await expect(section(page, lng, 'profile').getByRole('alert')).toHaveCount(0)
    })

    test('password: the current one is checked; the new one logs in and other sessions end', async ({ page, context, api }) => {
      const user = await api.createUser('email', 'pwd')
      const otherSession = await api.login(user.user_name, user.password)
      const newPassword = strongPassword()
      await loginAs(context, user)
      await page.goto('/user/setting')
      const form = section(page, lng, 'password')

      await form.getByLabel(ui.oldPassword).fill(`${user.password}-wrong`)
      await form.getByLabel(ui.newPassword).fill(newPassword)
      await form.getByLabel(ui.confirm).fill(newPassword)
      await form.getByRole('button', { name: ui.changePassword }).click()
      await expectFieldError(section(page, lng, 'password').getByLabel(ui.oldPassword), ui.oldPasswordWrong)
      // The server's answer never carries the typed passwords back (JS off: they would be in the HTML).
      expect(await page.content()).not.toContain(newPassword)

      await form.getByLabel(ui.oldPassword).fill(user.password)
      await form.getByLabel(ui.newPassword).fill(newPassword)
      await form.getByLabel(ui.confirm).fill(newPassword)
      await form.getByRole('button', { name: ui.changePassword }).click()
      await expectFlash(page, ui.passwordChanged)

      // This session goes on with a fresh token; the other one is revoked.
      await page.goto('/user/setting')
      await expect(page).toHaveURL('/user/setting')
      expect((await api.call(usersApi.userInfo, { token: otherSession })).code).toBe(401)
      expect((await api.call(authApi.login, { body: { username: user.user_name, password: user.password } })).code).toBe(401)

      await page.getByRole('button', { name: ui.logout }).click()
      await expect(page).toHaveURL('/login')
      await login(page, user.user_name, newPassword)
    })

    test('security phone: bound with a code, shown as bound, and the checklist step is done', async ({ page, context, api }) => {
      const user = await api.createUser('email', 'phn')
      const phone = uniquePhone()
      await loginAs(context, user)
      await page.goto('/dashboard/workplace')
      await expect(step(page, lng, 'phone')).toContainText(ui.todo)
      await expect(page.getByText(ui.remaining(3))).toBeVisible()

      await page.goto('/user/setting')
      await expect(section(page, lng, 'phone')).toContainText(ui.notBound)
      await section(page, lng, 'phone').getByLabel(ui.phone).fill(phone)
      await section(page, lng, 'phone').getByRole('button', { name: ui.sendCode }).click()
      await expect(section(page, lng, 'phone').getByRole('status')).toContainText(phone)
      const code = await api.latestCode(phone, 'bind')

      // Without JS the page came back from the server: the number must still be there.
      await expect(section(page, lng, 'phone').getByLabel(ui.phone)).toHaveValue(phone)
      await section(page, lng, 'phone').getByLabel(ui.code).fill(code === '000000' ? '111111' : '000000')
      await section(page, lng, 'phone').getByRole('button', { name: ui.bindPhone }).click()
      await expectFieldError(section(page, lng, 'phone').getByLabel(ui.code), ui.codeInvalid)
      expect((await api.adminGetUser(user.id)).phone).toBeNull()

      await section(page, lng, 'phone').getByLabel(ui.phone).fill(phone)
      await section(page, lng, 'phone').getByLabel(ui.code).fill(code)
      await section(page, lng, 'phone').getByRole('button', { name: ui.bindPhone }).click()
      await expectFlash(page, ui.saved)
      await expect(section(page, lng, 'phone')).toContainText(`${ui.currentPhone}: ${phone}`)
      await expect(section(page, lng, 'phone')).toContainText(ui.bound)
      expect((await api.adminGetUser(user.id)).phone).toBe(phone)

      await page.goto('/dashboard/workplace')
      await expect(step(page, lng, 'phone')).toContainText(ui.done)
      await expect(step(page, lng, 'phone')).not.toContainText(ui.todo)
      await expect(page.getByText(ui.remaining(2))).toBeVisible()
      // The bound phone is now a login name too.
      expect((await api.call(authApi.login, { body: { username: phone, password: user.password } })).code).toBe(200)
    })

    test('Alipay account: a bad account is refused, a good one is stored', async ({ page, context, api }) => {
      const user = await api.createUser('email', 'ali')
      const account = uniqueEmail(`pay_${user.user_name}`)
      await loginAs(context, user)
      await page.goto('/dashboard/workplace')
      await expect(step(page, lng, 'alipay')).toContainText(ui.todo)
      await page.goto('/user/setting')
      const form = section(page, lng, 'alipay')

      await form.getByLabel(ui.realName).fill('张三')
      await form.getByLabel(ui.alipayAccount).fill('not an account')
      await form.getByRole('button', { name: ui.save }).click()
      await expectFieldError(section(page, lng, 'alipay').getByLabel(ui.alipayAccount), ui.alipayFormat)
      expect((await api.adminGetUser(user.id)).alipayAccount).toBeNull()

      await form.getByLabel(ui.realName).fill('张三')
      await form.getByLabel(ui.alipayAccount).fill(account)
      await form.getByRole('button', { name: ui.save }).click()
      await expectFlash(page, ui.saved)
      expect(await api.adminGetUser(user.id)).toMatchObject({ alipayRealName: '张三', alipayAccount: account })
      await page.reload()
      await expect(section(page, lng, 'alipay').getByLabel(ui.alipayAccount)).toHaveValue(account)

      await page.goto('/dashboard/workplace')
      await expect(step(page, lng, 'alipay')).toContainText(ui.done)
    })

    test('terms: agreeing is recorded once and completes the checklist with the other steps', async ({ page, context, api }) => {
      const user = await api.createUser('phone', 'trm')
      await loginAs(context, user)
      await page.goto('/user/setting')
      await expect(section(page, lng, 'terms')).toContainText(ui.notAgreed)
      await section(page, lng, 'terms').getByRole('button', { name: ui.agreeTerms }).click()
      await expectFlash(page, ui.termsAgreed)
      await expect(section(page, lng, 'terms')).toContainText(ui.agreed)
      await expect(section(page, lng, 'terms').getByRole('button', { name: ui.agreeTerms })).toHaveCount(0)
      const agreedAt = (await api.adminGetUser(user.id)).terms_agreed_at
      expect(agreedAt).not.toBeNull()

      // Signed up by phone and now agreed: only the Alipay step is left; storing it finishes the list.
      await page.goto('/dashboard/workplace')
      await expect(step(page, lng, 'terms')).toContainText(ui.done)
      await expect(step(page, lng, 'phone')).toContainText(ui.done)
      await expect(page.getByText(ui.remaining(1))).toBeVisible()
      const token = await api.login(user.user_name, user.password)
      await api.ok(usersApi.updateAlipayInfo, { token, body: { alipayRealName: 'Li Si', alipayAccount: user.phone! } })
      await page.reload()
      await expect(page.getByText(ui.allDone)).toBeVisible()
      // Agreeing again keeps the first time.
      await api.ok(usersApi.agreeToTerms, { token })
      expect((await api.adminGetUser(user.id)).terms_agreed_at).toBe(agreedAt)
    })
  })
}
