// The built console also runs under `remix-serve` (DESIGN §1 names it; the product starts web-server.mjs,
// decision 001 — README "Deploy" says when to use which). This run's build is served by
// `remix-serve build/server/index.js`, started through node_modules/.bin (STACK.md: stopping it by its
// process id then stops the server), in front of this run's API: the login page hydrates from the assets
// it serves, and a share page shows its share.
import path from 'node:path'
import { sharesApi } from '#contract/shares.ts'
import { API_URL, DATA_DIR, DEMO_PASSWORD, WEB_PORT } from './env.ts'
import { expect, hydrated, test, uniqueName } from './fixtures.ts'
import { ROOT, startServer } from './second-server.ts'

test('remix-serve serves the built console: the login page and a share page', async ({ page, api }) => {
  const port = WEB_PORT + 510
  const seller = await api.login('demo_seller', DEMO_PASSWORD)
  const share = await api.ok(sharesApi.new, {
    token: seller,
    body: { title: uniqueName('served'), type: 'text', content: 'served secret', price: 2, subscription_status: 'close' },
  })
  await api.ok(sharesApi.adminUpdate, { token: await api.adminToken(), body: { id: share.id, status: 'approved' } })

  const server = await startServer(
    path.join(ROOT, 'node_modules', '.bin', 'remix-serve'),
    ['build/server/index.js'],
    { PORT: String(port), HOST: '127.0.0.1', API_URL, DATA_DIR, NODE_ENV: 'production' },
    port,
  )
  try {
    const origin = `http://localhost:${port}`
    const login = await page.goto(`${origin}/login`)
    expect(login?.status()).toBe(200)
    await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible()
    // Hydrated: the page's scripts came from remix-serve's /assets.
    await hydrated(page)

    const shared = await page.goto(`${origin}/share/${share.unicode}`)
    expect(shared?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: share.title })).toBeVisible()
    await expect(page.getByRole('button', { name: /购买 ¥2\.00/ })).toBeVisible()
    expect(await page.content()).not.toContain('served secret')
  } finally {
    server.kill('SIGTERM')
  }
})
