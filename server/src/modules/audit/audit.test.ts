import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, users } from '../../db/schema/index.ts'
import { ADMIN_PASSWORD, USER_PASSWORD, bearer, buildTestApp, createUser, type TestApp } from '../../../test/helpers.ts'
import { recordAudit } from './service.ts'

let t: TestApp
let admin: string
let user: string
let adminId: number

beforeAll(async () => {
  t = await buildTestApp()
  admin = await t.login('admin', ADMIN_PASSWORD)
  user = await t.login((await createUser(t.db)).userName, USER_PASSWORD)
  adminId = (await t.db.select({ id: users.id }).from(users).where(sql`${users.userName} = 'admin'`))[0]!.id
})
afterAll(() => t.close())

const list = (subject: string, token = admin) => t.app.inject({ method: 'GET', url: `/api/audit/admin/list?subject=${encodeURIComponent(subject)}`, headers: bearer(token) })

describe('audit trail', () => {
  it("lists one item's changes, oldest first, with who did them", async () => {
    await recordAudit(t.db, { subject: 'share', subjectId: 777, action: 'take_down', actorId: adminId, from: 'approved', to: 'reported_invalid', reason: 'spam' })
    await recordAudit(t.db, { subject: 'share', subjectId: 777, action: 'recover', actorId: null, from: 'reported_invalid', to: 'approved' })
    await recordAudit(t.db, { subject: 'user', subjectId: 777, action: 'ban', actorId: adminId })
    const res = await list('share:777')
    expect(res.statusCode, res.body).toBe(200)
    const events = res.json().data.list
    expect(events.map((e: { action: string }) => e.action)).toEqual(['take_down', 'recover'])
    expect(events[0]).toMatchObject({ subject: 'share:777', actor: { id: adminId, user_name: 'admin' }, from: 'approved', to: 'reported_invalid', reason: 'spam' })
    expect(events[1].actor).toBeNull()
  })

  it('refuses a subject that is not type:id with 422, and non-admins with 403', async () => {
    for (const bad of ['share', 'share:0', 'share:x', 'shop:1', 'share:99999999999', '']) expect((await list(bad)).statusCode, bad).toBe(422)
    expect((await list('share:1', user)).statusCode).toBe(403)
  })

  it('is append-only: the database refuses to change or delete a row', async () => {
    await recordAudit(t.db, { subject: 'order', subjectId: 5, action: 'refund', actorId: adminId })
    // Drizzle wraps the database's error; its cause carries the trigger's message.
    const refusal = (q: Promise<unknown>) => q.then(() => 'changed', (e: Error & { cause?: Error }) => e.cause?.message ?? e.message)
    expect(await refusal(t.db.execute(sql`update ${auditEvents} set action = 'x' where subject_id = 5`))).toMatch(/append-only/)
    expect(await refusal(t.db.execute(sql`delete from ${auditEvents}`))).toMatch(/append-only/)
    expect((await list('order:5')).json().data.list).toHaveLength(1)
  })
})
