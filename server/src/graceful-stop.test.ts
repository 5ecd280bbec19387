// A graceful stop (issue 22): SIGTERM lets the request in flight finish, ends the live streams with a
// reconnect hint, and the process exits well within 10 s. The API runs as its own process, as deployed.
import http from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { authApi } from '#contract/auth.ts'
import { fetchClient, requestOf } from '#contract/client.ts'
import { EVENTS_PATH } from '#contract/messages.ts'
import { type SpawnedApi, spawnApi } from '../test/spawn-api.ts'

describe('SIGTERM on the API', () => {
  let api: SpawnedApi | undefined
  afterAll(() => {
    if (api && api.child.exitCode === null) api.child.kill('SIGKILL')
  })

  it('finishes the request in flight, ends the SSE stream with a reconnect hint and exits within 10 s', async () => {
    api = await spawnApi()
    const { token } = await fetchClient(api.base).ok(authApi.login, { body: { username: 'admin', password: 'Admin@2026' } })

    // A live stream, read as raw text.
    let stream = ''
    const streamEnded = new Promise<void>((resolve, reject) => {
      http
        .get(`${api!.base}${EVENTS_PATH}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.setEncoding('utf8')
          res.on('data', (c: string) => (stream += c))
          res.on('end', resolve)
        })
        .on('error', reject)
    })
    // A slow request: its headers and half its body are in before the signal, the rest after it.
    const body = JSON.stringify({ username: 'admin', password: 'Admin@2026' })
    const { url } = requestOf(api.base, authApi.login)
    let slowStatus = 0
    let slowBody = ''
    const slow = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
    const slowDone = new Promise<void>((resolve, reject) => {
      slow.on('response', (res) => {
        slowStatus = res.statusCode ?? 0
        res.setEncoding('utf8')
        res.on('data', (c: string) => (slowBody += c))
        res.on('end', resolve)
      })
      slow.on('error', reject)
    })
    slow.write(body.slice(0, 10))
    await new Promise((r) => setTimeout(r, 300))
    expect(stream).toContain('retry:')

    const signalled = Date.now()
    api.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 500))
    // Stopped accepting: a new connection is refused…
    await expect(fetch(`${api.base}/api/health`)).rejects.toThrow()
    // …while the request in flight is still served.
    slow.end(body.slice(10))
    await slowDone
    expect(slowStatus).toBe(200)
    expect(JSON.parse(slowBody).data.token).toMatch(/.+/)

    await streamEnded
    expect(stream).toMatch(/retry: \d+\n: reconnect/)
    const code = await api.exited
    const took = Date.now() - signalled
    console.log(`  the API exited ${took} ms after SIGTERM`)
    expect(code).toBe(0)
    expect(took).toBeLessThan(10_000)
  }, 90_000)
})
