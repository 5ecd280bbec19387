import Fastify from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { endpoint } from '#contract/http.ts'
import { type chatApi } from '#contract/messages.ts'
import { type TestApp, ADMIN_PASSWORD, DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, bearer, buildTestApp } from '../../test/helpers.ts'
import type { AuthUser } from '../plugins/app/auth.ts'
import { type CallerOf, defineModule, ok } from './module.ts'
import { responseSerializerCompiler } from './serializer.ts'

const adminThing = endpoint({ method: 'GET', path: '/api/things/admin/list', access: 'admin', tag: 't', summary: 's', response: z.null() })
const userThing = endpoint({ method: 'GET', path: '/api/things/list', access: 'user', tag: 't', summary: 's', response: z.null() })

async function register(plugin: ReturnType<typeof defineModule>) {
  const app = Fastify({ logger: false })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(responseSerializerCompiler)
  await app.register(plugin)
  return app.ready()
}

describe('defineModule', () => {
  it('refuses an admin endpoint outside the admin scope, and a user endpoint inside it', async () => {
    await expect(register(defineModule({ name: 'a', routes: (r) => r.route(adminThing, async () => ok(null)) }))).rejects.toThrow(/admin scope/)
    await expect(register(defineModule({ name: 'b', admin: (r) => r.route(userThing, async () => ok(null)) }))).rejects.toThrow(/api scope/)
  })

  it('gives the handler of a user or admin endpoint its user, typed (no `request.user!`)', async () => {
    expectTypeOf<CallerOf<typeof userThing>>().toEqualTypeOf<AuthUser>()
    expectTypeOf<CallerOf<typeof adminThing>>().toEqualTypeOf<AuthUser>()
    // Opening a chat: an account's, or a visitor's by its order number.
    expectTypeOf<CallerOf<typeof chatApi.create>>().toEqualTypeOf<AuthUser | null>()
    // Registered without the authentication hook: the handler is still never reached without a user.
    let reached = false
    const app = Fastify({ logger: false })
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(responseSerializerCompiler)
    app.decorateRequest('user', null)
    await app.register(
      defineModule({
        name: 'c',
        routes: (r) =>
          r.route(userThing, async (request) => {
            expectTypeOf(request.user).toEqualTypeOf<AuthUser>()
            reached = true
            return ok(null)
          }),
      }),
    )
    const res = await app.inject({ method: 'GET', url: '/api/things/list' })
    expect(res.statusCode).toBe(401)
    expect(reached).toBe(false)
    await app.close()
  })
})

describe('the /api scope', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('authenticates by default and keeps admin endpoints for admins', async () => {
    const buyer = await t.login(DEMO_BUYER.userName, DEMO_PASSWORD)
    const admin = await t.login('admin', ADMIN_PASSWORD)
    expect((await t.app.inject({ method: 'POST', url: '/api/user/menu' })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: bearer(buyer) })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: bearer(admin) })).statusCode).toBe(200)
  })

  it('identifies the caller of an optional endpoint only by a bearer token, and answers every other caller as a visitor', async () => {
    const seller = await t.login(DEMO_SELLER.userName, DEMO_PASSWORD)
    const payload = { title: 'A share', type: 'text', content: 'the secret', price: 9.9, subscription_status: 'close' }
    const unicode = (await t.app.inject({ method: 'POST', url: '/api/shares/new', headers: bearer(seller), payload })).json().data.unicode as string
    const lookup = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/share?unicode=${unicode}`, headers })
    // The owner, known by its token, reads its own content; nobody else does.
    expect((await lookup(bearer(seller))).json().data.content).toEqual(expect.any(String))
    for (const headers of [{} as Record<string, string>, { authorization: `Basic ${Buffer.from('demo_seller:x').toString('base64')}` }, { authorization: 'Bearer not-a-token' }, { authorization: '' }]) {
      const res = await lookup(headers)
      expect(res.statusCode).toBe(200)
      expect(res.json().data.content).toBeUndefined()
    }
    // A public endpoint never asks who calls, even with a token that is not one.
    expect((await t.app.inject({ method: 'GET', url: '/api/oauth/providers', headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(200)
  })

  it('documents response shapes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    const outbox = doc.paths['/api/dev/outbox'].get
    expect(outbox.tags).toContain('admin')
    const schema = outbox.responses['200'].content['application/json'].schema
    expect(Object.keys(schema.properties)).toEqual(['code', 'msg', 'data'])
    expect(Object.keys(schema.properties.data.properties)).toEqual(expect.arrayContaining(['list', 'pageNum', 'pageSize']))
  })
})

describe('answers are written from the response schema', () => {
  async function answering(data: unknown) {
    const thing = endpoint({ method: 'GET', path: '/api/things/one', access: 'public', tag: 't', summary: 's', response: z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable().optional() }) })
    const app = Fastify({ logger: false })
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(responseSerializerCompiler)
    await app.register(defineModule({ name: 't', routes: (r) => r.route(thing, async () => ok(data as never)) }))
    const res = await app.inject({ method: 'GET', url: '/api/things/one' })
    await app.close()
    return res
  }

  it('sends only the declared fields', async () => {
    const res = await answering({ id: 1, name: 'a', note: null, passwordHash: 'secret' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: { id: 1, name: 'a', note: null } })
    expect(res.body).not.toContain('secret')
  })

  it('refuses to send an answer that lacks a required field', async () => {
    const res = await answering({ id: 1 })
    expect(res.statusCode).toBe(500)
    expect(res.body).not.toContain('"id":1')
  })
})
