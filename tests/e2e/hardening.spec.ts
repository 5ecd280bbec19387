// Issue 6 hardening of the console, in a real browser (JavaScript on and off): redirect targets stay on
// the site, forged posts are refused, non-form bodies are client errors, paid pages are never cached.
import { BASE_URL } from './env.ts'
import { expect, login, test } from './fixtures.ts'

const WORKPLACE = '/dashboard/workplace'

test.describe('redirect targets stay on this site', () => {
  test('login with a TAB or CR/LF in the redirect is refused (400) and logs nobody in', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    for (const redirect of ['/\t/evil.example', '/\r\n/evil.example']) {
      await page.goto(`/login?${new URLSearchParams({ redirect })}`)
      await page.getByLabel(/^用户名、邮箱或手机号/).fill(user.user_name)
      await page.getByLabel(/^密码/).fill(user.password)
      await page.getByRole('button', { name: /^登录$/ }).click()
      await expect(page.getByRole('alert')).toHaveText('无法识别的请求。')
      expect(new URL(page.url()).origin).toBe(BASE_URL)
      // No session was made.
      await page.goto(WORKPLACE)
      await expect(page).toHaveURL(/\/login\?redirect=/)
    }
  })

  test('login with a backslash or a protocol-relative redirect lands on the workplace', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    await login(page, user, undefined, { path: `/login?${new URLSearchParams({ redirect: '/\\evil.example' })}`, expectUrl: WORKPLACE })
  })

  // Issue 20: the check looked at the value before resolving it; `/.//host` resolves to `//host`.
  test('login with a dot-segment redirect (/.//evil.example/phish) stays on the site', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    await login(page, user, undefined, { path: `/login?${new URLSearchParams({ redirect: '/.//evil.example/phish' })}`, expectUrl: WORKPLACE })
    expect(new URL(page.url()).origin).toBe(BASE_URL)
  })

  test('/redirect/* and the locale switch never leave the site', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    await login(page, user)
    expect((await page.goto('/redirect/%09/evil.example'))?.status()).toBe(400)
    await page.goto('/redirect/%5Cevil.example')
    await expect(page).toHaveURL(WORKPLACE)
    await page.goto('/redirect/user/setting?from=menu')
    await expect(page).toHaveURL('/user/setting?from=menu')

    const locale = (redirectTo: string) => page.request.post('/locale', { form: { locale: 'en-US', redirectTo }, headers: { origin: BASE_URL }, maxRedirects: 0 })
    expect((await locale('/\t/evil.example')).status()).toBe(400)
    for (const offSite of ['//evil.example/', '/.//evil.example/', '/%2e%2e//evil.example/']) {
      const res = await locale(offSite)
      expect(res.status(), offSite).toBe(302)
      expect(res.headers().location, offSite).toBe('/login')
    }
    const dotted = await page.request.get('/redirect/%252e%252e//evil.example/', { maxRedirects: 0 })
    expect(new URL(dotted.headers().location ?? '', BASE_URL).origin).toBe(BASE_URL)
  })
})

test.describe('posts from another site', () => {
  test('cannot log the user out or switch the language (403)', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    await login(page, user)
    const evil = { origin: 'http://evil.example' }
    expect((await page.request.post('/logout', { headers: evil, maxRedirects: 0 })).status()).toBe(403)
    expect((await page.request.post('/locale', { form: { locale: 'en-US', redirectTo: '/' }, headers: evil, maxRedirects: 0 })).status()).toBe(403)
    // Still logged in, still in Chinese.
    await page.goto(WORKPLACE)
    await expect(page).toHaveURL(WORKPLACE)
    await expect(page.getByRole('button', { name: '退出登录' })).toBeVisible()
  })
})

test.describe('page forms posted from another site, or with an intent the page does not have (issue 20)', () => {
  test('a cross-site post to a page is a 403 (it was a bare 500) and logs nobody in', async ({ playwright, api }) => {
    const user = await api.createUser('email', 'hrd')
    const client = await playwright.request.newContext({ baseURL: BASE_URL })
    try {
      const form = { username: user.user_name, password: user.password, intent: 'login' }
      const crossSite: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }]
      for (const headers of crossSite) {
        const res = await client.post('/login', { form, headers, maxRedirects: 0 })
        expect(res.status(), JSON.stringify(headers)).toBe(403)
        expect(await res.text()).toContain('该请求并非来自本站')
        expect(res.headers()['set-cookie'] ?? '').not.toMatch(/ps_session=[^;]/)
      }
      const profile = await client.post('/user/setting/profile', { form: { profile: 'forged' }, headers: { origin: 'http://evil.example' }, maxRedirects: 0 })
      expect(profile.status()).toBe(403)
    } finally {
      await client.dispose()
    }
  })

  test('the login form with an intent it does not have is a 400 (it was a 500) and logs nobody in', async ({ playwright, api }) => {
    const user = await api.createUser('email', 'hrd')
    const client = await playwright.request.newContext({ baseURL: BASE_URL })
    try {
      for (const intent of ['nope', 'constructor', '']) {
        const res = await client.post('/login', { form: { username: user.user_name, password: user.password, intent }, headers: { origin: BASE_URL }, maxRedirects: 0 })
        expect(res.status(), intent).toBe(400)
        expect(res.headers()['set-cookie'] ?? '').not.toMatch(/ps_session=[^;]/)
      }
    } finally {
      await client.dispose()
    }
  })
})

test.describe('bodies that are not forms', () => {
  test('JSON or junk multipart posted to a form route is a 400, not a 500', async ({ page, api }) => {
    const user = await api.createUser('email', 'hrd')
    await login(page, user)
    const headers = { origin: BASE_URL }
    for (const path of ['/login', '/user/setting/profile', '/share/AbCd2345', '/locale']) {
      expect((await page.request.post(path, { data: { username: 'x' }, headers, maxRedirects: 0 })).status(), `${path} JSON`).toBe(400)
      const junk = await page.request.post(path, { headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x' }, data: Buffer.from('junk'), maxRedirects: 0 })
      expect(junk.status(), `${path} junk multipart`).toBe(400)
    }
  })
})

test.describe('paid pages', () => {
  test('/share/CODE?order=… and its data request are private and never stored', async ({ page }) => {
    for (const path of ['/share/AbCd2345?order=PS20261123000000123456789012', '/share/AbCd2345.data?order=PS20261123000000123456789012']) {
      const res = await page.request.get(path)
      expect(res.headers()['cache-control'], path).toBe('private, no-store')
    }
  })
})
