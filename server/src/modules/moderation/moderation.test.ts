import { eq } from 'drizzle-orm'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Appeal, Report, ReportStatusView, Takedown } from '#contract/moderation.ts'
import { appeals, auditEvents, reports, shares, users } from '../../db/schema/index.ts'
import { badInputs, expectRejected } from '../../../test/bad-input.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, createUser, dbFingerprint, freshIp, type TestApp } from '../../../test/helpers.ts'
import { newUnicode } from '../shares/rules.ts'

type Seller = { id: number; token: string }

describe('reports and appeals', () => {
  let t: TestApp
  let admin: string
  let seller: Seller
  let other: Seller

  const inject = (o: InjectOptions) => t.app.inject(o)
  async function user(): Promise<Seller> {
    const u = await createUser(t.db)
    return { id: u.id, token: await t.login(u.userName, u.password) }
  }
  async function share(owner: Seller, status: 'approved' | 'under_review' = 'approved') {
    const [row] = await t.db
      .insert(shares)
      .values({ userId: owner.id, title: 'Moderated', unicode: newUnicode(), type: 'text', contentEnc: t.app.cipher.encrypt('x'), priceFen: 100, status })
      .returning()
    return row!
  }
  const shareRow = async (id: number) => (await t.db.select().from(shares).where(eq(shares.id, id)))[0]!
  const report = (unicode: string, o: { ip?: string; token?: string; reason?: string; description?: string } = {}) =>
    inject({
      method: 'POST',
      url: '/api/reports/create',
      remoteAddress: o.ip ?? freshIp(),
      headers: o.token ? bearer(o.token) : {},
      payload: { unicode, reason: o.reason ?? 'fraud', description: o.description ?? 'It is a scam' },
    })
  async function reported(unicode: string, o: Parameters<typeof report>[1] = {}) {
    const res = await report(unicode, o)
    expect(res.statusCode, res.body).toBe(201)
    return (res.json().data as { id: number }).id
  }
  const handle = (id: unknown, action: unknown, token = admin) => inject({ method: 'POST', url: '/api/reports/admin/handle', headers: bearer(token), payload: { id, action } })
  const appeal = (s: Seller, unicode: string, description = 'It is my own work') =>
    inject({ method: 'POST', url: '/api/appeals/create', headers: bearer(s.token), payload: { unicode, description } })
  const decide = (id: unknown, action: unknown, token = admin) => inject({ method: 'POST', url: '/api/appeals/admin/handle', headers: bearer(token), payload: { id, action } })
  const trail = (shareId: number) => t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, shareId)).orderBy(auditEvents.id)
  const adminReports = async (q: string) => (await inject({ url: `/api/reports/admin/list?${q}`, headers: bearer(admin) })).json().data as { list: Report[]; total: number }

  beforeAll(async () => {
    t = await buildTestApp({ config: { seedDemo: false } })
    admin = await t.login('admin', ADMIN_PASSWORD)
    seller = await user()
    other = await user()
  })
  afterAll(() => t.close())

  describe('reporting', () => {
    it('anyone reports a share: the number, the IP, the user when signed in, the share status; follow it by number and code', async () => {
      const s = await share(seller)
      const id = await reported(s.unicode, { ip: '203.0.113.9' })
      const signedIn = await reported(s.unicode, { token: other.token, reason: 'spam', description: '' })
      const rows = await t.db.select().from(reports).where(eq(reports.shareId, s.id)).orderBy(reports.id)
      expect(rows.map((r) => [r.id, r.reporterIp, r.reporterId, r.shareStatus, r.status, r.reason])).toEqual([
        [id, '203.0.113.9', null, 'approved', 'processing', 'fraud'],
        [signedIn, rows[1]!.reporterIp, other.id, 'approved', 'processing', 'spam'],
      ])
      const status = await inject({ url: `/api/reports/status?id=${id}&unicode=${s.unicode}` })
      expect(status.statusCode).toBe(200)
      const view = status.json().data as ReportStatusView
      expect(view).toMatchObject({ id, unicode: s.unicode, status: 'processing', action: null, handled_at: null })
      // Nothing about who reported, and a number with another share's code tells nothing.
      expect(JSON.stringify(view)).not.toMatch(/203\.0\.113|reporter|description/)
      const other2 = await share(seller)
      expect((await inject({ url: `/api/reports/status?id=${id}&unicode=${other2.unicode}` })).statusCode).toBe(404)
    })

    it('an unknown or deleted share: 404 with a clear message, nothing stored', async () => {
      const s = await share(seller)
      await t.db.update(shares).set({ deletedAt: new Date() }).where(eq(shares.id, s.id))
      const before = await dbFingerprint(t.db)
      for (const unicode of [newUnicode(), s.unicode]) {
        const res = await report(unicode)
        expect(res.statusCode).toBe(404)
        expect(res.json().msg).toBe('moderation.shareNotFound')
      }
      expect(await dbFingerprint(t.db)).toEqual(before)
    })

    it('is rate-limited per IP and share (3 a day) and per IP (20 an hour): 429 with the wait, nothing stored', async () => {
      const s = await share(seller)
      const ip = freshIp()
      for (let i = 0; i < 3; i++) await reported(s.unicode, { ip })
      const before = await dbFingerprint(t.db)
      const refused = await report(s.unicode, { ip })
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toMatchObject({ msg: 'moderation.tooManyReports', data: { retryAfter: expect.any(Number) } })
      expect(await dbFingerprint(t.db)).toEqual(before)
      // Another IP may still report this share, and this IP another share.
      await reported(s.unicode)
      const s2 = await share(seller)
      await reported(s2.unicode, { ip })
      // The IP's own cap, across shares.
      const flood = freshIp()
      for (let i = 0; i < 20; i++) await reported((await share(seller)).unicode, { ip: flood })
      expect((await report(s2.unicode, { ip: flood })).statusCode).toBe(429)
    })

    it('bad input: 422 naming the field, nothing stored', async () => {
      const s = await share(seller)
      const before = await dbFingerprint(t.db)
      const cases = [
        ...badInputs({
          method: 'POST',
          url: '/api/reports/create',
          body: {
            fields: { unicode: { type: 'string', required: true }, reason: { type: 'string', required: true }, description: { type: 'string', freeText: true } },
            valid: { unicode: s.unicode, reason: 'fraud', description: 'x' },
          },
        }),
        ...badInputs({ method: 'GET', url: '/api/reports/status', query: { fields: { id: { type: 'int' }, unicode: { type: 'string' } }, valid: { id: '1', unicode: s.unicode } } }),
      ]
      // A 10 KB description is valid text for the schema's type but over its 500 characters: 422 too.
      for (const c of cases) expectRejected(await inject({ ...c.request, remoteAddress: freshIp() }), c)
      const long = await report(s.unicode, { description: 'x'.repeat(501) })
      expect(long.statusCode).toBe(422)
      expect(long.json().data.fieldErrors.description).toEqual(['moderation.validation.descriptionTooLong'])
      expect(await dbFingerprint(t.db)).toEqual(before)
    })
  })

  describe('handling reports', () => {
    it("take down: the share reported_invalid, its take-down counted, all its open reports handled, one audit row; a repeat changes nothing", async () => {
      const s = await share(seller)
      const a = await reported(s.unicode)
      const b = await reported(s.unicode, { reason: 'spam' })
      const res = await handle(a, 'take_down')
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toMatchObject({ msg: 'moderation.reportDone', data: { share_status: 'reported_invalid', handled: 2, report: { id: a, status: 'handled', action: 'take_down', handled_by: 'admin' } } })
      expect(await shareRow(s.id)).toMatchObject({ status: 'reported_invalid', takedowns: 1 })
      const rows = await t.db.select().from(reports).where(eq(reports.shareId, s.id))
      expect(rows.map((r) => [r.status, r.action])).toEqual([
        ['handled', 'take_down'],
        ['handled', 'take_down'],
      ])
      expect((await trail(s.id)).map((e) => [e.action, e.fromState, e.toState])).toEqual([['report_take_down', 'approved', 'reported_invalid']])
      // The public page shows it taken down, not for sale.
      const pub = await inject({ url: `/api/share?unicode=${s.unicode}` })
      expect(pub.json().data).toMatchObject({ status: 'reported_invalid', for_sale: false })

      const before = await dbFingerprint(t.db)
      for (const id of [a, b]) {
        const again = await handle(id, 'take_down')
        expect(again.statusCode).toBe(200)
        expect(again.json()).toMatchObject({ msg: 'moderation.reportAlreadyDone', data: { handled: 0 } })
      }
      const other = await handle(a, 'ban')
      expect(other.statusCode).toBe(409)
      expect(other.json().msg).toBe('moderation.reportHandled')
      expect(await dbFingerprint(t.db)).toEqual(before)
    })

    it('racing handles of one share (same report and another report, different actions) apply once', async () => {
      const s = await share(seller)
      const ids = [await reported(s.unicode), await reported(s.unicode), await reported(s.unicode)]
      const results = await Promise.all([handle(ids[0], 'take_down'), handle(ids[0], 'take_down'), handle(ids[1], 'take_down'), handle(ids[2], 'ban'), handle(ids[1], 'recover')])
      const applied = results.filter((r) => r.json().msg === 'moderation.reportDone')
      expect(applied).toHaveLength(1)
      for (const r of results) expect([200, 409]).toContain(r.statusCode)
      const row = await shareRow(s.id)
      const events = await trail(s.id)
      expect(events.length).toBeLessThanOrEqual(1)
      expect(row.takedowns).toBe(row.status === 'reported_invalid' ? 1 : 0)
      const actions = new Set((await t.db.select().from(reports).where(eq(reports.shareId, s.id))).map((r) => `${r.status}:${r.action}`))
      expect(actions.size).toBe(1)
    })

    it('recover brings a taken-down share back; ban is final; actions a status does not allow are 409 with nothing changed', async () => {
      const s = await share(seller)
      await handle(await reported(s.unicode), 'take_down')
      const r2 = await reported(s.unicode, { reason: 'other' })
      expect((await adminReports(`unicode=${s.unicode}&status=processing`)).list.map((r) => [r.id, r.share_status, r.current_share_status])).toEqual([
        [r2, 'reported_invalid', 'reported_invalid'],
      ])
      expect((await handle(r2, 'recover')).json().data).toMatchObject({ share_status: 'approved', handled: 1 })
      expect((await shareRow(s.id)).status).toBe('approved')

      const r3 = await reported(s.unicode)
      expect((await handle(r3, 'ban')).json().data.share_status).toBe('violation')
      const r4 = await reported(s.unicode)
      const before = await dbFingerprint(t.db)
      for (const action of ['recover', 'take_down']) {
        const res = await handle(r4, action)
        expect(res.statusCode).toBe(409)
        expect(res.json().msg).toBe('moderation.actionNotAllowed')
      }
      expect(await dbFingerprint(t.db)).toEqual(before)
      // Its reports may still be closed as banned, which changes the share no further.
      expect((await handle(r4, 'ban')).json().data).toMatchObject({ share_status: 'violation', handled: 1 })
      expect((await trail(s.id)).map((e) => e.action)).toEqual(['report_take_down', 'report_recover', 'report_ban'])

      const review = await share(seller, 'under_review')
      const r5 = await reported(review.unicode)
      expect((await handle(r5, 'take_down')).statusCode).toBe(409)
    })

    it('the queue: SPEC §3 fields, filters by status, unicode, reason and day; bad input → 422/404, nothing changed', async () => {
      const s = await share(seller)
      const id = await reported(s.unicode, { token: other.token, reason: 'porn', ip: '198.51.100.4' })
      const page = await adminReports(`unicode=${s.unicode}`)
      expect(page.total).toBe(1)
      expect(page.list[0]).toMatchObject({ id, reason: 'porn', unicode: s.unicode, status: 'processing', share_status: 'approved', reporter_ip: '198.51.100.4', description: 'It is a scam' })
      expect(page.list[0]!.reporter_name).toBeTruthy()
      expect((await adminReports(`unicode=${s.unicode}&reason=spam`)).total).toBe(0)
      expect((await adminReports(`unicode=${s.unicode}&status=handled`)).total).toBe(0)
      expect((await adminReports(`unicode=${s.unicode}&from=2000-01-01&to=2000-01-02`)).total).toBe(0)

      const before = await dbFingerprint(t.db)
      const cases = [
        ...badInputs({
          method: 'POST',
          url: '/api/reports/admin/handle',
          headers: bearer(admin),
          body: { fields: { id: { type: 'int', required: true }, action: { type: 'string', required: true } }, valid: { id, action: 'recover' } },
        }),
        ...badInputs({
          method: 'GET',
          url: '/api/reports/admin/list',
          headers: bearer(admin),
          query: { fields: { pageNum: { type: 'int' }, pageSize: { type: 'int' }, status: { type: 'string' }, reason: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } }, valid: {} },
        }),
      ]
      for (const c of cases) expectRejected(await inject(c.request), c)
      const missing = await handle(2_000_000_000, 'ban')
      expect(missing.statusCode).toBe(404)
      expect(missing.json().msg).toBe('moderation.reportNotFound')
      expect(await dbFingerprint(t.db)).toEqual(before)
    })
  })

  describe('appeals', () => {
    async function takenDown() {
      const s = await share(seller)
      await handle(await reported(s.unicode, { reason: 'infringement' }), 'take_down')
      return s
    }

    it("the seller sees the take-down and its reason, appeals once per take-down; others get 404; admin approves → buyable again", async () => {
      const s = await takenDown()
      const mine = (await inject({ url: '/api/appeals/mine', headers: bearer(seller.token) })).json().data as { list: Takedown[] }
      expect(mine.list.find((x) => x.share_id === s.id)).toEqual({ share_id: s.id, unicode: s.unicode, takedown_no: 1, reasons: ['infringement'], appeal: null })

      const before = await dbFingerprint(t.db)
      const stranger = await appeal(other, s.unicode)
      expect(stranger.statusCode).toBe(404)
      expect(await dbFingerprint(t.db)).toEqual(before)

      const [first, second] = await Promise.all([appeal(seller, s.unicode), appeal(seller, s.unicode, 'again')])
      expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409])
      const created = (first.statusCode === 201 ? first : second).json().data as Appeal
      expect(created).toMatchObject({ unicode: s.unicode, appeal_status: 'pending', takedown_no: 1, reasons: ['infringement'], share_status: 'reported_invalid' })
      expect((first.statusCode === 409 ? first : second).json().msg).toBe('moderation.alreadyAppealed')
      expect(await t.db.select().from(appeals).where(eq(appeals.shareId, s.id))).toHaveLength(1)

      const decisions = await Promise.all([decide(created.id, 'approve'), decide(created.id, 'approve'), decide(created.id, 'ban')])
      const applied = decisions.filter((d) => d.json().msg === 'moderation.appealDone')
      expect(applied).toHaveLength(1)
      const row = await shareRow(s.id)
      const winner = applied[0]!.json().data as Appeal
      expect(row.status).toBe(winner.appeal_status === 'approved' ? 'approved' : 'violation')
      expect((await trail(s.id)).map((e) => e.action)).toEqual(['report_take_down', winner.appeal_status === 'approved' ? 'appeal_approve' : 'appeal_ban'])
    })

    it('approve: the share is for sale again; taken down again, it can be appealed again', async () => {
      const s = await takenDown()
      const a = (await appeal(seller, s.unicode)).json().data as Appeal
      const ok = await decide(a.id, 'approve')
      expect(ok.json()).toMatchObject({ msg: 'moderation.appealDone', data: { appeal_status: 'approved', share_status: 'approved', handled_by: 'admin' } })
      expect((await inject({ url: `/api/share?unicode=${s.unicode}` })).json().data.for_sale).toBe(true)
      const order = await inject({ method: 'POST', url: '/api/orders/create', remoteAddress: freshIp(), payload: { unicode: s.unicode, paymentMethod: 'Alipay' } })
      expect(order.statusCode, order.body).toBe(201)
      expect((await appeal(seller, s.unicode)).statusCode).toBe(409)

      await handle(await reported(s.unicode), 'take_down')
      expect((await shareRow(s.id)).takedowns).toBe(2)
      const again = await appeal(seller, s.unicode)
      expect(again.statusCode).toBe(201)
      expect(again.json().data.takedown_no).toBe(2)
    })

    it('ban: final, no appeal possible; a stale appeal (share recovered meanwhile) is refused', async () => {
      const s = await takenDown()
      const a = (await appeal(seller, s.unicode)).json().data as Appeal
      expect((await decide(a.id, 'ban')).json().data).toMatchObject({ appeal_status: 'banned', share_status: 'violation' })
      expect((await decide(a.id, 'ban')).json().msg).toBe('moderation.appealAlreadyDone')
      expect((await decide(a.id, 'approve')).statusCode).toBe(409)
      const res = await appeal(seller, s.unicode, 'please')
      expect(res.statusCode).toBe(409)
      expect(res.json().msg).toBe('moderation.notTakenDown')

      const s2 = await takenDown()
      const a2 = (await appeal(seller, s2.unicode)).json().data as Appeal
      await handle(await reported(s2.unicode), 'recover')
      const before = await dbFingerprint(t.db)
      const stale = await decide(a2.id, 'approve')
      expect(stale.statusCode).toBe(409)
      expect(stale.json().msg).toBe('moderation.appealStale')
      expect(await dbFingerprint(t.db)).toEqual(before)
    })

    it('bad input → 422/404, nothing changed; the list filters by status and unicode', async () => {
      const s = await takenDown()
      const a = (await appeal(seller, s.unicode)).json().data as Appeal
      const before = await dbFingerprint(t.db)
      const cases = [
        ...badInputs({
          method: 'POST',
          url: '/api/appeals/create',
          headers: bearer(seller.token),
          body: { fields: { unicode: { type: 'string', required: true }, description: { type: 'string', required: true, freeText: true } }, valid: { unicode: s.unicode, description: 'x' } },
        }),
        ...badInputs({
          method: 'POST',
          url: '/api/appeals/admin/handle',
          headers: bearer(admin),
          body: { fields: { id: { type: 'int', required: true }, action: { type: 'string', required: true } }, valid: { id: a.id, action: 'approve' } },
        }),
        ...badInputs({
          method: 'GET',
          url: '/api/appeals/admin/list',
          headers: bearer(admin),
          query: { fields: { pageNum: { type: 'int' }, appeal_status: { type: 'string' }, from: { type: 'string' } }, valid: {} },
        }),
      ]
      for (const c of cases.filter((c) => !(c.field === 'description' && c.name.endsWith('10 KB')))) expectRejected(await inject(c.request), c)
      expect((await appeal(seller, s.unicode, '   ')).json().data.fieldErrors.description).toEqual(['moderation.validation.appealRequired'])
      expect((await appeal(seller, s.unicode, 'x'.repeat(1001))).statusCode).toBe(422)
      expect((await decide(2_000_000_000, 'ban')).statusCode).toBe(404)
      expect(await dbFingerprint(t.db)).toEqual(before)

      const list = (await inject({ url: `/api/appeals/admin/list?unicode=${s.unicode}&appeal_status=pending`, headers: bearer(admin) })).json().data as { list: Appeal[] }
      expect(list.list.map((x) => x.id)).toEqual([a.id])
      expect((await inject({ url: `/api/appeals/admin/list?unicode=${s.unicode}&appeal_status=approved`, headers: bearer(admin) })).json().data.total).toBe(0)
    })
  })

  describe('audit of share-manage and seller edits', () => {
    it('admin approve, take down (counted, appealable) and ban on share-manage, and a seller edit back to review, are each recorded', async () => {
      const s = await share(seller, 'under_review')
      const up = (status: string) => inject({ method: 'POST', url: '/api/shares/admin/update', headers: bearer(admin), payload: { id: s.id, status } })
      expect((await up('approved')).statusCode).toBe(200)
      expect((await up('reported_invalid')).statusCode).toBe(200)
      expect((await shareRow(s.id)).takedowns).toBe(1)
      const a = await appeal(seller, s.unicode)
      expect(a.statusCode).toBe(201)
      expect(a.json().data.reasons).toEqual([])
      await decide(a.json().data.id, 'approve')
      // The seller's edit of the title sends it back to review.
      const edit = await inject({ method: 'POST', url: '/api/shares/update', headers: bearer(seller.token), payload: { id: s.id, title: 'Changed title' } })
      expect(edit.statusCode, edit.body).toBe(200)
      expect((await up('violation')).statusCode).toBe(200)
      const events = await trail(s.id)
      expect(events.map((e) => [e.action, e.fromState, e.toState, e.actorId])).toEqual([
        ['admin_approve', 'under_review', 'approved', expect.any(Number)],
        ['admin_take_down', 'approved', 'reported_invalid', expect.any(Number)],
        ['appeal_approve', 'reported_invalid', 'approved', expect.any(Number)],
        ['seller_edit', 'approved', 'under_review', seller.id],
        ['admin_ban', 'under_review', 'violation', expect.any(Number)],
      ])
      // Through the API the admin view reads.
      const api = await inject({ url: `/api/audit/admin/list?subject=share:${s.id}`, headers: bearer(admin) })
      expect(api.json().data.list).toHaveLength(5)
    })
  })

  describe('batch actions of the admin queues (decision 125)', () => {
    const batch = (path: string, payload: unknown, token = admin) => inject({ method: 'POST', url: `/api/${path}/admin/batch`, headers: bearer(token), payload: payload as object })

    it('shares: one move on several, a result per share (unknown and not-allowed ids refused by name), each with its audit row; a replay changes nothing', async () => {
      const a = await share(seller, 'under_review')
      const b = await share(seller, 'under_review')
      const banned = await share(seller)
      await t.db.update(shares).set({ status: 'violation' }).where(eq(shares.id, banned.id))
      const res = await batch('shares', { ids: [a.id, 999999, b.id, banned.id, a.id], move: 'approve' })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data).toEqual({
        results: [
          { id: a.id, ok: true, changed: true, msg: 'shares.moved.approve' },
          { id: 999999, ok: false, changed: false, msg: 'shares.notFound' },
          { id: b.id, ok: true, changed: true, msg: 'shares.moved.approve' },
          { id: banned.id, ok: false, changed: false, msg: 'shares.badTransition' },
        ],
        done: 2,
        failed: 2,
      })
      expect([(await shareRow(a.id)).status, (await shareRow(b.id)).status, (await shareRow(banned.id)).status]).toEqual(['approved', 'approved', 'violation'])
      expect((await trail(a.id)).map((e) => [e.action, e.fromState, e.toState])).toEqual([['admin_approve', 'under_review', 'approved']])
      const before = await dbFingerprint(t.db)
      const replay = await batch('shares', { ids: [a.id, b.id], move: 'approve' })
      expect(replay.json().data).toMatchObject({ done: 2, failed: 0, results: [{ changed: false, msg: 'shares.moved.already' }, { changed: false }] })
      expect(await dbFingerprint(t.db)).toEqual(before)
    })

    it('reports: take down several at once, each closing its share’s other open reports; handled ones and unknown ids answer per item', async () => {
      const s1 = await share(seller)
      const s2 = await share(other)
      const r1 = await reported(s1.unicode)
      const r1b = await reported(s1.unicode)
      const r2 = await reported(s2.unicode)
      const res = await batch('reports', { ids: [r1, r2, 0x7fffff], action: 'take_down' })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data.results).toEqual([
        { id: r1, ok: true, changed: true, msg: 'moderation.reportDone' },
        { id: r2, ok: true, changed: true, msg: 'moderation.reportDone' },
        { id: 0x7fffff, ok: false, changed: false, msg: 'moderation.reportNotFound' },
      ])
      expect([(await shareRow(s1.id)).status, (await shareRow(s2.id)).status]).toEqual(['reported_invalid', 'reported_invalid'])
      expect((await t.db.select().from(reports).where(eq(reports.id, r1b)))[0]!.status).toBe('handled')
      // The same again: unchanged; another action on them: refused by name, the shares as they were.
      expect((await batch('reports', { ids: [r1, r1b], action: 'take_down' })).json().data).toMatchObject({ done: 2, results: [{ changed: false }, { changed: false }] })
      expect((await batch('reports', { ids: [r2], action: 'ban' })).json().data.results).toEqual([{ id: r2, ok: false, changed: false, msg: 'moderation.reportHandled' }])
      expect((await shareRow(s2.id)).status).toBe('reported_invalid')
    })

    it('appeals: approve several; a pending one whose share moved on is refused by itself; bad input is a 422, never a 500', async () => {
      const s1 = await share(seller)
      const s2 = await share(other)
      for (const s of [s1, s2]) expect((await handle(await reported(s.unicode), 'take_down')).statusCode).toBe(200)
      const a1 = (await appeal(seller, s1.unicode)).json().data as Appeal
      const a2 = (await appeal(other, s2.unicode)).json().data as Appeal
      const res = await batch('appeals', { ids: [a1.id, a2.id], action: 'approve' })
      expect(res.json().data).toMatchObject({ done: 2, failed: 0 })
      expect([(await shareRow(s1.id)).status, (await shareRow(s2.id)).status]).toEqual(['approved', 'approved'])
      expect((await batch('appeals', { ids: [a1.id], action: 'ban' })).json().data).toMatchObject({ done: 0, failed: 1, results: [{ ok: false }] })
      for (const payload of [{}, { ids: [], action: 'approve' }, { ids: ['x'], action: 'approve' }, { ids: [a1.id], action: 'nope' }, { ids: Array.from({ length: 101 }, (_, i) => i + 1), action: 'approve' }]) {
        const bad = await batch('appeals', payload)
        expect(bad.statusCode, JSON.stringify(payload)).toBe(422)
      }
      expect((await batch('appeals', { ids: [a1.id], action: 'approve' }, seller.token)).statusCode).toBe(403)
    })

    it('a queue item is decided in place: the share contents by id and the seller’s record (reports, take-downs, banned shares) by name', async () => {
      const s = await user()
      const name = (await t.db.select().from(users).where(eq(users.id, s.id)))[0]!.userName
      const a = await share(s)
      const b = await share(s)
      await reported(a.unicode)
      await reported(a.unicode)
      await batch('shares', { ids: [a.id], move: 'takeDown' })
      await batch('shares', { ids: [b.id], move: 'ban' })
      const history = await inject({ url: `/api/users/admin/seller-history?names=${name},nobody-here`, headers: bearer(admin) })
      expect(history.statusCode, history.body).toBe(200)
      expect(history.json().data.list).toEqual([{ id: s.id, user_name: name, is_banned: 0, refunds: 0, reports: 2, takedowns: 1, banned_shares: 1 }])
      const contents = await inject({ url: `/api/shares/admin/contents?ids=${a.id},${b.id},999999`, headers: bearer(admin) })
      expect(contents.statusCode, contents.body).toBe(200)
      expect(contents.json().data.list).toEqual(expect.arrayContaining([{ id: a.id, user_name: name, type: 'text', content: 'x', extraction_code: null }]))
      expect(contents.json().data.list).toHaveLength(2)
      expect((await inject({ url: `/api/shares/admin/contents?ids=${a.id}`, headers: bearer(seller.token) })).statusCode).toBe(403)
      expect((await inject({ url: '/api/shares/admin/contents?ids=abc', headers: bearer(admin) })).statusCode).toBe(422)
    })
  })
})
