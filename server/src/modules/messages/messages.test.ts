import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Notification, PrivateMessage, Unread } from '#contract/messages.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, type TestApp } from '../../../test/helpers.ts'

describe('private messages and notifications', () => {
  let t: TestApp
  let admin: string
  let user: { id: number; name: string; token: string }
  let other: { id: number; token: string }

  beforeAll(async () => {
    t = await buildTestApp()
    admin = await t.login('admin', ADMIN_PASSWORD)
    const u = await createUser(t.db)
    user = { id: u.id, name: u.userName, token: await t.login(u.userName, u.password) }
    const o = await createUser(t.db)
    other = { id: o.id, token: await t.login(o.userName, o.password) }
  })
  afterAll(async () => t?.close())

  const get = async <T>(url: string, token: string) => {
    const res = await t.app.inject({ url, headers: bearer(token) })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data as T
  }
  const post = (url: string, token: string, payload?: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) })
  const unread = (token: string) => get<Unread>('/api/afterSalesChat/getUnreadMessageCount', token)

  it('the admin writes to a user by name, the user reads, replies and marks all read; nobody else sees it', async () => {
    const sent = await post('/api/messages/admin/send', admin, { username: user.name, content: 'Your share was approved.' })
    expect(sent.statusCode, sent.body).toBe(201)
    expect((await unread(user.token)).messages).toBe(1)
    const mine = await get<{ list: PrivateMessage[] }>('/api/messages/list', user.token)
    expect(mine.list.map((m) => [m.sender, m.content])).toEqual([['admin', 'Your share was approved.']])
    expect((await get<{ list: PrivateMessage[] }>('/api/messages/list', other.token)).list).toEqual([])
    expect((await unread(other.token)).messages).toBe(0)

    const reply = await post('/api/messages/send', user.token, { content: 'Thanks!' })
    expect(reply.statusCode).toBe(201)
    const adminUnread = (await unread(admin)).messages
    expect(adminUnread).toBeGreaterThanOrEqual(1)
    const conversation = await get<{ list: PrivateMessage[] }>(`/api/messages/admin/list?user_id=${user.id}`, admin)
    expect(conversation.list.map((m) => m.content)).toEqual(['Thanks!', 'Your share was approved.'])
    expect((await unread(admin)).messages).toBe(adminUnread - 1)

    expect((await post('/api/messages/markAllRead', user.token)).statusCode).toBe(200)
    expect(await unread(user.token)).toMatchObject({ messages: 0, notifications: 0 })
  })

  it('bad input gets a clear message and changes nothing; users get 403 on the admin calls', async () => {
    const before = await dbFingerprint(t.db)
    const unknown = await post('/api/messages/admin/send', admin, { username: 'nobody_here_x', content: 'hi' })
    expect([unknown.statusCode, unknown.json().data.fieldErrors.username]).toEqual([422, ['messages.userNotFound']])
    const long = await post('/api/messages/send', user.token, { content: 'x'.repeat(2001) })
    expect([long.statusCode, long.json().data.fieldErrors.content]).toEqual([422, ['messages.contentTooLong']])
    const bad = await post('/api/notifications/admin/create', admin, { title: '', priority: -1, content: '', label_color: 'red' })
    expect(Object.keys(bad.json().data.fieldErrors).sort()).toEqual(['content', 'label_color', 'priority', 'title'])
    expect((await post('/api/messages/admin/send', user.token, { username: user.name, content: 'x' })).statusCode).toBe(403)
    expect((await post('/api/notifications/admin/create', user.token, { title: 't', priority: 1, content: 'c', label_color: 'blue' })).statusCode).toBe(403)
    expect((await t.app.inject({ url: '/api/notifications/admin/delete?id=1', headers: bearer(user.token) })).statusCode).toBe(403)
    expect((await t.app.inject({ url: '/api/messages/list' })).statusCode).toBe(401)
    expect(await dbFingerprint(t.db)).toEqual(before)
  })

  it('notifications: created, edited and deleted by admins, shown to every user by priority, unread until marked', async () => {
    const create = async (title: string, priority: number) => {
      const res = await post('/api/notifications/admin/create', admin, { title, priority, content: `${title} body`, label_color: 'cyan' })
      expect(res.statusCode, res.body).toBe(201)
      return res.json().data as Notification
    }
    const low = await create('Low', 1)
    const high = await create('High', 50)
    const seen = await get<{ list: Notification[] }>('/api/notifications/list', other.token)
    expect(seen.list.map((n) => [n.title, n.unread])).toEqual([
      ['High', true],
      ['Low', true],
    ])
    expect((await unread(other.token)).notifications).toBe(2)
    await post('/api/messages/markAllRead', other.token)
    expect((await unread(other.token)).notifications).toBe(0)
    const edited = await post('/api/notifications/admin/update', admin, { id: low.id, title: 'Low now top', priority: 99, content: 'x', label_color: 'orangered' })
    expect(edited.json().data).toMatchObject({ title: 'Low now top', label_color: 'orangered' })
    // An edit shows again as unread.
    expect((await unread(other.token)).notifications).toBe(1)
    expect((await get<{ list: Notification[] }>('/api/notifications/list', other.token)).list[0]!.id).toBe(low.id)
    const del = () => t.app.inject({ url: `/api/notifications/admin/delete?id=${high.id}`, headers: bearer(admin) })
    expect((await del()).statusCode).toBe(200)
    expect((await del()).statusCode).toBe(404)
    expect((await post('/api/notifications/admin/update', admin, { id: high.id, title: 'x', priority: 1, content: 'x', label_color: 'blue' })).statusCode).toBe(404)
  })
})
