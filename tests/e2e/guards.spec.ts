// SPEC §2 navigation guards as a person meets them — a private page, login and back; the 404 page — and
// the admin's own pages. The guards' redirects without a browser live in loader tests: every admin route
// refuses a non-admin and sends a visitor to login (app/routes/_app.system/admin-access.test.ts), login
// never leaves the site (app/routes/login/route.test.ts), a logged-in /login, /agreement, /faq and the
// public pages' titles (app/.server/titles-and-redirects.test.ts); the menu pages' titles: walk.spec.ts.
import { authApi } from '#contract/auth.ts'
import { ADMIN } from './env.ts'
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

  test('an unknown path is the 404 page', async ({ page }) => {
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

for (const lng of ['zh-CN', 'en-US'] as const) {
  test.describe(`the admin (${lng})`, () => {
    test.use({ lng })
    const T = {
      'zh-CN': { users: '用户管理', records: '登录记录', outbox: '验证码发件箱', keyword: /^用户名、邮箱或手机号/, recordKeyword: /^用户名、邮箱或 IP/, search: '查询', ban: '封禁', unban: '解封', banned: '已封禁', edited: '编辑成功', confirmBan: '确认封禁该用户？', makeAdmin: '设为管理员', confirmAdmin: '确认设为管理员？', cancel: '取消', site: 'PayShare 付费分享', system: '系统管理' },
      'en-US': { users: 'Users', records: 'Login records', outbox: 'Code outbox', keyword: /^User name, email or phone/, recordKeyword: /^User name, email or IP/, search: 'Search', ban: 'Ban', unban: 'Unban', banned: 'Banned', edited: 'Edited Successfully', confirmBan: 'Ban this user?', makeAdmin: 'Make admin', confirmAdmin: 'Make this user an admin?', cancel: 'Cancel', site: 'PayShare', system: 'System' },
    }[lng]

    test('reaches user-manage: finds a user, bans and unbans them', { tag: lng === 'zh-CN' ? ['@js-off-only'] : [] }, async ({ page, context, api }) => {
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
      expect((await api.call(authApi.login, { body: { username: user.user_name, password: user.password } })).code).toBe(200)
      await confirm.getByRole('button', { name: T.ban }).click()
      await expectFlash(page, T.edited)
      await expect(confirm).toBeHidden()
      await expect(page.getByRole('row').filter({ hasText: user.user_name })).toContainText(T.banned)
      expect((await api.call(authApi.login, { body: { username: user.user_name, password: user.password } })).code).toBe(403)

      await page.getByRole('row').filter({ hasText: user.user_name }).getByRole('button', { name: T.unban }).click()
      await expectFlash(page, T.edited)
      await expect(page.getByRole('row').filter({ hasText: user.user_name })).not.toContainText(T.banned)
      expect((await api.call(authApi.login, { body: { username: user.user_name, password: user.password } })).code).toBe(200)

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
      await api.ok(authApi.registerCode, { query: { email } })
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
