// SPEC §2 navigation guards, the admin-only /system pages, redirects, the 404 page and page titles.
import { ADMIN, DEMO_PASSWORD } from './env.ts'
import { expect, expectFlash, login, loginAs, test, uniqueEmail } from './fixtures.ts'

test.describe('anonymous visitors', () => {
  test('a private page sends them to login with a redirect, and login lands back there', async ({ page, api }) => {
    const user = await api.createUser('email', 'grd')
    await page.goto('/dashboard/workplace')
    await expect(page).toHaveURL('/login?redirect=%2Fdashboard%2Fworkplace')
    await login(page, user, undefined, { path: null, expectUrl: '/dashboard/workplace' })

    await page.getByRole('button', { name: '退出登录' }).click()
    await expect(page).toHaveURL('/login')
    // The query of the private page survives the trip through login.
    await page.goto('/user/setting?from=guard')
    await expect(page).toHaveURL('/login?redirect=%2Fuser%2Fsetting%3Ffrom%3Dguard')
    await login(page, user, undefined, { path: null, expectUrl: '/user/setting?from=guard' })
    await expect(page.getByRole('heading', { name: '用户设置' })).toBeVisible()
  })

  test('login never follows a redirect off the site', async ({ page, api }) => {
    const user = await api.createUser('email', 'grd')
    await login(page, user, undefined, { path: '/login?redirect=%2F%2Fevil.example%2Fsteal', expectUrl: '/dashboard/workplace' })
  })

  test('public pages stay open: agreements and the 404 page', async ({ page }) => {
    await page.goto('/agreement')
    await expect(page).toHaveURL('/agreement/exemptionagree')
    await expect(page).toHaveTitle('免责声明 - PayShare 付费分享')
    await page.goto('/agreement/user-privacy')
    await expect(page).toHaveURL('/agreement/user-privacy')

    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(404)
    await expect(page).toHaveURL('/no/such/page')
    await expect(page).toHaveTitle('页面不存在 - PayShare 付费分享')
    await expect(page.getByRole('alert')).toHaveText('抱歉，页面不见了～')
    await expect(page.getByRole('link', { name: '重试' })).toBeVisible()
    await expect(page.getByRole('link', { name: '返回' })).toBeVisible()
  })
})

test.describe('unknown paths (en-US)', () => {
  test.use({ lng: 'en-US' })

  test("show 'Whoops, this page is gone.' with retry and back", async ({ page }) => {
    const res = await page.goto('/dashboard/nothing-here?x=1')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('alert')).toHaveText('Whoops, this page is gone.')
    await expect(page).toHaveTitle('Page not found - PayShare')
    await expect(page.getByRole('link', { name: 'Retry' })).toHaveAttribute('href', '/dashboard/nothing-here?x=1')
    await expect(page.getByRole('link', { name: 'Back' })).toBeVisible()
  })
})

test.describe('logged-in users', () => {
  test('going to /login goes to the workplace, keeping the redirect and the query (zh-CN)', async ({ page, context, api }) => {
    const user = await api.createUser('email', 'grd')
    await loginAs(context, user)
    await page.goto('/login?tab=register&from=menu')
    await expect(page).toHaveURL('/dashboard/workplace?tab=register&from=menu')
    await page.goto('/login?redirect=%2Fuser%2Fsetting')
    await expect(page).toHaveURL('/dashboard/workplace?redirect=%2Fuser%2Fsetting')
    await expect(page).toHaveTitle('工作台 - PayShare 付费分享')
  })
})

test.describe('logged-in users (en-US)', () => {
  test.use({ lng: 'en-US' })

  test('/faq goes to /faq/docs; page titles are "{label} - {site name}"', async ({ page, context, api }) => {
    const user = await api.createUser('phone', 'grd')
    await page.goto('/login')
    await expect(page).toHaveTitle('Login - PayShare')
    await loginAs(context, user)
    await page.goto('/dashboard/workplace')
    await expect(page).toHaveTitle('Workplace - PayShare')
    await page.goto('/faq')
    await expect(page).toHaveURL('/faq/docs')
    await expect(page).toHaveTitle('FAQ - PayShare')
    await page.goto('/user/setting')
    await expect(page).toHaveTitle('User settings - PayShare')
    await page.goto('/agreement')
    await expect(page).toHaveURL('/agreement/exemptionagree')
    await expect(page).toHaveTitle('Disclaimer - PayShare')
  })
})

for (const lng of ['zh-CN', 'en-US'] as const) {
  test.describe(`a user who is not an admin (${lng})`, () => {
    test.use({ lng })

    test('is sent away from every /system page with the 403 message', async ({ page, context, api }) => {
      const user = await api.createUser('email', 'usr')
      await loginAs(context, user)
      await page.goto('/dashboard/workplace')
      // No admin menu for them.
      await expect(page.getByRole('navigation', { name: lng === 'zh-CN' ? '菜单' : 'Menu' })).not.toContainText(lng === 'zh-CN' ? '系统管理' : 'System')
      for (const path of ['/system/user-manage', '/system/login-record', '/system/outbox', '/system']) {
        await page.goto(path)
        await expect(page).toHaveURL('/dashboard/workplace')
        await expectFlash(page, lng === 'zh-CN' ? '对不起，您没有访问该资源的权限' : 'Access to this resource on the server is denied.')
      }
      // The API agrees.
      const token = await api.login(user.user_name, user.password)
      expect((await api.call('/api/users/list', { token })).code).toBe(403)
    })
  })
}

test.describe('the demo seller', () => {
  test('is a plain user too', async ({ page, context }) => {
    await loginAs(context, 'demo_seller', DEMO_PASSWORD)
    await page.goto('/system/user-manage')
    await expect(page).toHaveURL('/dashboard/workplace')
    // Phone, terms and Alipay are seeded: the checklist is complete.
    await expect(page.getByText('已全部完成')).toBeVisible()
  })
})

for (const lng of ['zh-CN', 'en-US'] as const) {
  test.describe(`the admin (${lng})`, () => {
    test.use({ lng })
    const T = {
      'zh-CN': { users: '用户管理', records: '登录记录', outbox: '验证码发件箱', keyword: /^用户名、邮箱或手机号/, recordKeyword: /^用户名、邮箱或 IP/, search: '查询', ban: '封禁', unban: '解封', banned: '已封禁', edited: '编辑成功', confirmBan: '确认封禁该用户？', makeAdmin: '设为管理员', confirmAdmin: '确认设为管理员？', cancel: '取消', site: 'PayShare 付费分享', system: '系统管理' },
      'en-US': { users: 'Users', records: 'Login records', outbox: 'Code outbox', keyword: /^User name, email or phone/, recordKeyword: /^User name, email or IP/, search: 'Search', ban: 'Ban', unban: 'Unban', banned: 'Banned', edited: 'Edited Successfully', confirmBan: 'Ban this user?', makeAdmin: 'Make admin', confirmAdmin: 'Make this user an admin?', cancel: 'Cancel', site: 'PayShare', system: 'System' },
    }[lng]

    test('reaches user-manage: finds a user, bans and unbans them', { tag: lng === 'zh-CN' ? ['@js-off'] : [] }, async ({ page, context, api }) => {
      const user = await api.createUser('email', 'mgd')
      await loginAs(context, ADMIN.username, ADMIN.password)
      await page.goto('/dashboard/workplace')
      await expect(page.getByRole('navigation', { name: lng === 'zh-CN' ? '菜单' : 'Menu' })).toContainText(T.system)
      await page.goto('/system/user-manage')
      await expect(page).toHaveTitle(`${T.users} - ${T.site}`)
      await expect(page.getByRole('heading', { name: T.users })).toBeVisible()

      await page.getByLabel(T.keyword).fill(user.user_name)
      await page.getByRole('button', { name: T.search }).click()
      await expect(page).toHaveURL(new RegExp(`/system/user-manage\\?keyword=${user.user_name}`))
      const rows = page.getByRole('row').filter({ hasText: user.user_name })
      await expect(rows).toHaveCount(1)
      await expect(rows).toContainText(user.email!)

      // Banning asks first (issue 13): nothing happens until the dialog's button is pressed.
      await rows.getByRole('link', { name: T.ban }).click()
      const confirm = page.getByRole('dialog', { name: T.confirmBan }).or(page.getByRole('alertdialog', { name: T.confirmBan }))
      await expect(confirm).toContainText(user.user_name)
      expect((await api.call('/api/auth/login', { body: { username: user.user_name, password: user.password } })).code).toBe(200)
      await confirm.getByRole('button', { name: T.ban }).click()
      await expectFlash(page, T.edited)
      await expect(confirm).toBeHidden()
      await expect(page.getByRole('row').filter({ hasText: user.user_name })).toContainText(T.banned)
      expect((await api.call('/api/auth/login', { body: { username: user.user_name, password: user.password } })).code).toBe(403)

      await page.getByRole('row').filter({ hasText: user.user_name }).getByRole('button', { name: T.unban }).click()
      await expectFlash(page, T.edited)
      await expect(page.getByRole('row').filter({ hasText: user.user_name })).not.toContainText(T.banned)
      expect((await api.call('/api/auth/login', { body: { username: user.user_name, password: user.password } })).code).toBe(200)

      // A role change asks first too; Cancel changes nothing.
      await page.getByRole('row').filter({ hasText: user.user_name }).getByRole('link', { name: T.makeAdmin }).click()
      const askRole = page.getByRole('dialog', { name: T.confirmAdmin }).or(page.getByRole('alertdialog', { name: T.confirmAdmin }))
      await expect(askRole).toContainText(user.user_name)
      await askRole.getByRole('link', { name: T.cancel }).click()
      await expect(askRole).toBeHidden()
      expect((await api.adminGetUser(user.id)).role).toBe('user')
    })

    test('reaches login-record and sees a fresh login with its address', async ({ page, context, api, clientIp }) => {
      const user = await api.createUser('email', 'rec')
      // createUser logged the user in through the API from this test's address.
      await loginAs(context, ADMIN.username, ADMIN.password)
      await page.goto('/system/login-record')
      await expect(page).toHaveTitle(`${T.records} - ${T.site}`)
      await page.getByLabel(T.recordKeyword).fill(user.user_name)
      await page.getByRole('button', { name: T.search }).click()
      const row = page.getByRole('row').filter({ hasText: user.user_name })
      await expect(row).toHaveCount(1)
      await expect(row).toContainText(clientIp)
      await expect(row).toContainText(user.email!)
    })

    test('reaches the outbox and sees the code that was sent', async ({ page, context, api }) => {
      const email = uniqueEmail()
      await api.ok('/api/auth/getRegisterVerificationCode', { query: { email } })
      const code = await api.latestCode(email, 'register')
      await loginAs(context, ADMIN.username, ADMIN.password)
      await page.goto('/system/outbox')
      await expect(page).toHaveTitle(`${T.outbox} - ${T.site}`)
      const row = page.getByRole('row').filter({ hasText: email })
      await expect(row).toHaveCount(1)
      await expect(row).toContainText(code)
    })
  })
}
