// Issue 6: when the API does not answer, the console keeps the session, says "temporarily unavailable"
// (503) in the user's language, and comes back by itself once the API answers again. A second console
// of this run's build is started in front of a port where nothing listens yet; later a relay to the
// run's API opens on that port.
import type { ChildProcess } from 'node:child_process'
import net from 'node:net'
import { API_PORT, DATA_DIR, WEB_PORT } from './env.ts'
import { expect, jsDisabled, login, test } from './fixtures.ts'
import { startServer } from './second-server.ts'

/** A console whose API is `apiPort` (the run's console and API stay as they are). */
const startConsole = (port: number, apiPort: number): Promise<ChildProcess> =>
  startServer(process.execPath, ['web-server.mjs'], { PORT: String(port), HOST: '127.0.0.1', API_URL: `http://127.0.0.1:${apiPort}`, DATA_DIR, NODE_ENV: 'production' }, port)

/** Relays `port` to the run's API: the API "comes back". `stop()` cuts it again. */
async function relayToApi(port: number): Promise<{ stop: () => void }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    const upstream = net.connect(API_PORT, '127.0.0.1')
    for (const s of [socket, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => undefined)
    }
    socket.pipe(upstream).pipe(socket)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  return {
    stop() {
      server.close()
      for (const s of sockets) s.destroy()
    },
  }
}

for (const lng of ['zh-CN', 'en-US'] as const) {
  // The page retries by itself with JavaScript (in English) and without (in Chinese), decision 108.
  test.describe(`the API is down (${lng})`, { tag: lng === 'zh-CN' ? ['@js-off-only'] : [] }, () => {
    test.use({ lng })
    const T = {
      'zh-CN': { title: '服务暂时不可用', retry: '重试', hello: /^您好/ },
      'en-US': { title: 'Service temporarily unavailable', retry: 'Retry', hello: /^Hello/ },
    }[lng]

    test('503 page, session kept, back by itself when the API answers', async ({ page, api, context }, testInfo) => {
      // Ports of their own per language and project, so parallel workers never share one.
      const offset = 500 + (lng === 'en-US' ? 2 : 0) + (jsDisabled(testInfo) ? 1 : 0)
      const port = WEB_PORT + offset
      const deadApi = API_PORT + offset
      const user = await api.createUser('email', 'dwn')
      await login(page, user)
      const sessionBefore = (await context.cookies()).find((c) => c.name === 'ps_session')?.value
      expect(sessionBefore).toBeTruthy()

      const console2 = await startConsole(port, deadApi)
      let relay: { stop: () => void } | null = null
      try {
        // Cookies do not depend on the port: this browser's session goes along.
        const res = await page.goto(`http://localhost:${port}/dashboard/workplace`)
        expect(res?.status()).toBe(503)
        await expect(page.getByRole('alert')).toHaveText(T.title)
        await expect(page.getByRole('link', { name: T.retry })).toHaveAttribute('href', '/dashboard/workplace')
        expect((await context.cookies()).find((c) => c.name === 'ps_session')?.value).toBe(sessionBefore)

        relay = await relayToApi(deadApi)
        // No click: the page tries again by itself (every 5 s).
        await expect(page.getByRole('heading', { name: T.hello })).toBeVisible({ timeout: 20_000 })
        await expect(page).toHaveURL(`http://localhost:${port}/dashboard/workplace`)
      } finally {
        console2.kill('SIGTERM')
        relay?.stop()
      }
    })
  })
}
