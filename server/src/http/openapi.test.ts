// The published OpenAPI document is valid and exact (issue 21): a strict validator accepts the document,
// and every 200 answer of every GET endpoint — called on a running API as a visitor, a buyer, a seller
// and an admin, over data that has orders (paid and refunded), a chat, withdrawals (pending and
// rejected), reports, appeals and notifications — matches the response schema the document publishes.
// OpenAPI 3.0 wrote a nullable enum as `{nullable: true, enum: [...]}` without `null`, and six real
// answers (refund_state, payout_method, a report's action) failed exactly this check.
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, reports, shares, users } from '../db/schema/index.ts'
import { seed } from '../db/seed.ts'
import { ADMIN_PASSWORD, bearer, buildTestApp, DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, freshIp, type TestApp } from '../../test/helpers.ts'

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

/**
 * GETs that change something when they answer 200 (SPEC §7 keeps deletions on GET, and codes are sent
 * by GET): called once, last, on something made for them, by the role that may.
 */
const MUTATING = new Set(['/api/shares/delete', '/api/packages/admin/delete', '/api/notifications/admin/delete'])

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: Document
  const tokens: Record<'visitor' | 'buyer' | 'seller' | 'admin', string | null> = { visitor: null, buyer: null, seller: null, admin: null }
  /** The query each GET needs to answer 200 (the fixture's own ids); a path not here is called bare. */
  const samples: Record<string, string> = {}

  beforeAll(async () => {
    t = await buildTestApp()
    // The whole demo marketplace (shares, packages, withdrawals, reports and appeals need the content key).
    await seed(t.db, { adminPassword: ADMIN_PASSWORD, demo: true, contentKey: t.app.config.secrets.contentKey, withdrawal: t.app.config.withdrawal })
    doc = (await t.app.inject({ url: '/api/docs/json' })).json() as Document
    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    tokens.buyer = await t.login(DEMO_BUYER.userName, DEMO_PASSWORD)
    const call = async (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload, remoteAddress: freshIp() })
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
      return res.json().data
    }
    const [seller] = await t.db.select().from(users).where(eq(users.userName, DEMO_SELLER.userName))
    const [share] = await t.db.select().from(shares).where(and(eq(shares.userId, seller!.id), eq(shares.status, 'approved'))).limit(1)

    // Two purchases by the logged-in buyer: one kept (with an after-sales chat), one refunded by an admin.
    const buy = async () => {
      const { orderNo } = await call('POST', '/api/orders/create', tokens.buyer, { unicode: share!.unicode, paymentMethod: 'Alipay' })
      const n = t.app.payments.sandbox!.settle(orderNo, share!.priceFen, true)
      expect((await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/notify', headers: n.headers, payload: n.body })).body).toBe('success')
      return orderNo as string
    }
    const kept = await buy()
    const [keptOrder] = await t.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, kept))
    await call('POST', '/api/orders/admin/refund', tokens.admin, { orderNo: await buy() })
    const chat = await call('POST', '/api/afterSalesChat/create', tokens.buyer, { order_no: kept })
    await call('POST', '/api/afterSalesChat/sendMessage', tokens.buyer, { chat_id: chat.id, content: 'Hello' })
    // Withdrawals: one pending, one rejected.
    await call('POST', '/api/withdrawals/create', tokens.seller, { amount: 10 })
    const rejected = await call('POST', '/api/withdrawals/create', tokens.seller, { amount: 10 })
    await call('POST', '/api/withdrawals/admin/reject', tokens.admin, { id: rejected.id, reason: 'Test' })
    // A notification, a private message, and things made to be deleted by the mutating GETs.
    await call('POST', '/api/notifications/admin/create', tokens.admin, { title: 'Kept', priority: 1, content: 'Text', label_color: 'blue' })
    const doomedNotification = await call('POST', '/api/notifications/admin/create', tokens.admin, { title: 'Doomed', priority: 1, content: 'Text', label_color: 'cyan' })
    const [report] = await t.db.select().from(reports).limit(1)
    const [reported] = await t.db.select().from(shares).where(eq(shares.id, report!.shareId))
    const [doomedShare] = await t.db.select().from(shares).where(and(eq(shares.userId, seller!.id), eq(shares.status, 'under_review'))).limit(1)
    const doomedPackage = await call('POST', '/api/packages/admin/create', tokens.admin, { name: 'Doomed', download_limit: 1, price: 1, duration_days: 1 })

    Object.assign(samples, {
      '/api/auth/getRegisterVerificationCode': 'email=openapi-new@payshare.test',
      '/api/auth/getPhoneRegisterVerificationCode': 'phone=13912345678',
      '/api/auth/getForgotPasswordrVerificationCode': `email=${DEMO_BUYER.email}`,
      '/api/auth/getEmailVerificationCode': 'email=openapi-change@payshare.test',
      '/api/auth/getPhoneVerificationCode': 'phone=13912345679',
      '/api/users/admin/getUserById': `id=${seller!.id}`,
      '/api/users/admin/detail': `id=${seller!.id}`,
      '/api/users/admin/seller-history': `names=${DEMO_SELLER.userName}`,
      '/api/shares/admin/contents': `ids=${share!.id}`,
      '/api/shares/admin/link-history': `id=${share!.id}`,
      '/api/shares/admin/link-rate': `user_id=${seller!.id}`,
      '/api/users/admin/fraud-preview': `id=${seller!.id}`,
      '/api/shares/detail': `id=${share!.id}`,
      '/api/shares/delete': `id=${doomedShare?.id ?? share!.id}`,
      '/api/share': `unicode=${share!.unicode}`,
      '/api/orders/payment-status': `orderNo=${kept}`,
      '/api/orders/admin/reveals': `id=${keptOrder!.id}`,
      '/api/audit/admin/list': `subject=user:${seller!.id}`,
      '/api/reports/status': `id=${report!.id}&unicode=${reported!.unicode}`,
      '/api/afterSalesChat/details': `chat_id=${chat.id}`,
      '/api/afterSalesChat/admin/details': `chat_id=${chat.id}`,
      '/api/packages/admin/delete': `id=${doomedPackage.id}`,
      '/api/notifications/admin/delete': `id=${doomedNotification.id}`,
    })
  }, 120_000)
  afterAll(() => t.close())

  it('is OpenAPI 3.1 and valid by a strict validator', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const result = await new Validator().validate(doc as never)
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('describes every 200 answer of every GET endpoint, as each role', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const gets = Object.entries(doc.paths).filter(([, ops]) => ops.get)
    expect(gets.length).toBeGreaterThan(50)
    const answered = new Map<string, string[]>()
    const failures: string[] = []
    const ordered = [...gets.filter(([p]) => !MUTATING.has(p)), ...gets.filter(([p]) => MUTATING.has(p))]
    for (const [path, ops] of ordered) {
      const schema = ops.get!.responses?.['200']?.content?.['application/json']?.schema
      expect(schema, `${path} publishes its 200 answer`).toBeDefined()
      const validate = ajv.compile(schema!)
      const roles = MUTATING.has(path) ? ([path === '/api/shares/delete' ? 'seller' : 'admin'] as const) : (['visitor', 'buyer', 'seller', 'admin'] as const)
      for (const role of roles) {
        const url = samples[path] ? `${path}?${samples[path]}` : path
        const res = await t.app.inject({ url, headers: tokens[role] ? bearer(tokens[role]!) : {}, remoteAddress: freshIp() })
        if (res.statusCode !== 200) continue
        answered.set(path, [...(answered.get(path) ?? []), role])
        if (!validate(res.json())) failures.push(`${role} GET ${url}: ${ajv.errorsText(validate.errors)}\n  ${res.body.slice(0, 300)}`)
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
    // Every GET endpoint answered 200 to someone, so each was checked at least once.
    expect(gets.map(([p]) => p).filter((p) => !answered.has(p))).toEqual([])
  }, 120_000)
})
