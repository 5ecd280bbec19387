// Scale-out (issue 10): two API instances on one PostgreSQL database and one Redis; a chat line sent
// through instance A reaches an SSE subscriber connected to instance B. Needs the machine's services:
// runs when TEST_REDIS_URL and TEST_DATABASE_URL are set (.ci/run sets both when they answer).
import crypto from 'node:crypto'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { openDatabase } from '../../db/client.ts'
import { seed } from '../../db/seed.ts'
import { shares, users } from '../../db/schema/index.ts'
import { ADMIN_PASSWORD, bearer, createUser, onServer, testConfig } from '../../../test/helpers.ts'
import { fetchClient } from '#contract/client.ts'
import { EVENTS_PATH, messagesApi } from '#contract/messages.ts'
import { newUnicode } from '../shares/rules.ts'
import { readEvents } from '../../../test/sse.ts'
import { eq } from 'drizzle-orm'
import { authApi } from '#contract/auth.ts'

const redisUrl = process.env.TEST_REDIS_URL
const serverUrl = process.env.TEST_DATABASE_URL
const ready = Boolean(redisUrl && serverUrl)
if (!ready) console.log('\n  NOT RUN: the two-instance live-event test needs TEST_REDIS_URL and TEST_DATABASE_URL (Redis and PostgreSQL)\n')

const admin = (statement: string) => onServer(serverUrl!, statement)

describe.skipIf(!ready)('live events across two API instances (Redis pub/sub)', () => {
  const name = `payshare_fanout_${crypto.randomBytes(5).toString('hex')}`
  const instances: { app: FastifyInstance; base: string; close: () => Promise<void> }[] = []

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`)
    const url = new URL(serverUrl!)
    url.pathname = `/${name}`
    // One shared config: the same secrets (tokens, content key) and the same Redis on both instances.
    const config = testConfig({ redisUrl })
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' })
      if (i === 0) {
        await handle.migrate()
        await seed(handle.db, { adminPassword: config.adminPassword, demo: false })
      }
      const app = await buildApp({ config, db: handle.db, logger: false })
      await app.listen({ port: 0, host: '127.0.0.1' })
      instances.push({ app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: async () => (await app.close(), await handle.close()) })
    }
  }, 60_000)
  afterAll(async () => {
    for (const i of instances) await i.close()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it('a line sent through instance A reaches the SSE subscribers on instance B', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]]
    const login = await fetch(`${a.base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    const [adminRow] = await a.app.db.select().from(users).where(eq(users.userName, 'admin'))
    const [share] = await a.app.db
      .insert(shares)
      .values({ userId: adminRow!.id, title: 'Fan-out', unicode: newUnicode(), type: 'text', contentEnc: a.app.cipher.encrypt('x'), priceFen: 100, status: 'approved' })
      .returning()
    const created = await a.app.inject({ method: 'POST', url: '/api/orders/create', payload: { unicode: share!.unicode, paymentMethod: 'Alipay' } })
    const orderNo = created.json().data.orderNo as string
    // The visitor's browser proves itself with the order's buyer key (decision 102).
    const proof = { 'x-buyer-key': created.json().data.buyerKey as string }
    const n = a.app.payments.sandbox!.settle(orderNo, 100, true)
    await a.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })
    const chat = (await a.app.inject({ method: 'POST', url: '/api/afterSalesChat/create', headers: proof, payload: { order_no: orderNo } })).json().data as { id: number }

    const adminOnB = readEvents(`${b.base}/api/events`, bearer(token))
    const visitorOnB = readEvents(`${b.base}/api/events?order_no=${orderNo}`, proof)
    expect(await Promise.all([adminOnB.ready, visitorOnB.ready])).toEqual([200, 200])
    await new Promise((r) => setTimeout(r, 100))

    const sent = await fetch(`${a.base}/api/afterSalesChat/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json', ...proof }, body: JSON.stringify({ chat_id: chat.id, order_no: orderNo, content: 'via A' }) })
    expect(sent.status).toBe(201)
    await adminOnB.waitFor((e) => e.type === 'chat' && (e.data as { message: { content: string } }).message.content === 'via A')
    const answer = await fetch(`${a.base}/api/afterSalesChat/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify({ chat_id: chat.id, content: 'answer via A' }) })
    expect(answer.status).toBe(201)
    await visitorOnB.waitFor((e) => e.type === 'chat' && (e.data as { message: { content: string } }).message.content === 'answer via A')
    // Each event once, not once per instance.
    expect(adminOnB.events.filter((e) => e.type === 'chat').length).toBe(2)
    adminOnB.close()
    visitorOnB.close()
  })

  it('a stream that loses instance B and reconnects to A with Last-Event-ID gets what it missed, once', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]]
    const { token } = await fetchClient(a.base).ok(authApi.login, { body: { username: 'admin', password: ADMIN_PASSWORD } })
    const user = await createUser(a.app.db)
    const send = (content: string) => fetchClient(a.base).ok(messagesApi.adminSend, { token, body: { username: user.userName, content } })
    const content = (e: { data: unknown }) => (e.data as { message: { content: string } }).message.content

    const onB = readEvents(`${b.base}${EVENTS_PATH}`, bearer(token))
    expect(await onB.ready).toBe(200)
    await new Promise((r) => setTimeout(r, 100))
    await send('seen on B')
    const seen = await onB.waitFor((e) => e.type === 'message' && content(e) === 'seen on B')
    onB.close()
    await send('missed 1')
    await send('missed 2')

    const onA = readEvents(`${a.base}${EVENTS_PATH}`, { ...bearer(token), 'last-event-id': seen.id! })
    expect(await onA.ready).toBe(200)
    await onA.waitFor((e) => e.type === 'message' && content(e) === 'missed 2')
    await send('live on A')
    await onA.waitFor((e) => e.type === 'message' && content(e) === 'live on A')
    await new Promise((r) => setTimeout(r, 100))
    expect(onA.events.filter((e) => e.type === 'message').map(content)).toEqual(['missed 1', 'missed 2', 'live on A'])
    onA.close()
  })
})
