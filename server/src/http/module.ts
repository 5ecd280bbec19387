import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Access, BodyOut, DataOf, Endpoint, QueryOut } from '#contract/http.ts'
import { forbidden, unauthorized } from '../errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; read by the default authentication hook (`user` when unset). */
    access?: Access
  }
}

/** A successful answer: `{code, msg, data}` with the HTTP status mirroring `code` (DESIGN §4). */
export type Answer<T> = { readonly code: 200 | 201; readonly msg: string; readonly data: T }
export const ok = <T>(data: T, msg = 'ok'): Answer<T> => ({ code: 200, msg, data })
export const created = <T>(data: T, msg = 'ok'): Answer<T> => ({ code: 201, msg, data })

/**
 * Who calls an endpoint, by its access: a `user` or `admin` endpoint's handler always has its user
 * (the default hook refused everyone else), an `optional` one's may, a `public` one's is not asked.
 */
export type CallerOf<E extends Endpoint> = E extends { access: 'user' | 'admin' } ? AuthUser : E extends { access: 'optional' } ? AuthUser | null : null
/** The signed-in user as the authentication plugin sets it on a request (plugins/app/auth.ts). */
type AuthUser = NonNullable<FastifyRequest['user']>
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Querystring: QueryOut<E>; Body: BodyOut<E> }> & { user: CallerOf<E> }
export type Handler<E extends Endpoint> = (request: EndpointRequest<E>, reply: FastifyReply) => Promise<Answer<DataOf<E>>>

type Scope = 'api' | 'admin'

/** Registers contract endpoints in one scope. */
export type Router = {
  /** The scope's Fastify instance, for decorations and the odd route that is not a contract endpoint. */
  app: FastifyInstance
  route<E extends Endpoint>(e: E, handler: Handler<E>): void
}

const envelopeOf = (data: z.ZodType) => z.object({ code: z.number().int(), msg: z.string(), data })

function router(app: FastifyInstance, scope: Scope): Router {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  return {
    app,
    route(e, handler) {
      // A new admin endpoint cannot be registered outside the admin scope, and nothing else inside it.
      if ((e.access === 'admin') !== (scope === 'admin')) {
        throw new Error(`${e.method} ${e.path} (access ${e.access}) must be registered in the ${e.access === 'admin' ? 'admin' : 'api'} scope of its module`)
      }
      const envelope = envelopeOf(e.response)
      typed.route({
        method: e.method,
        url: e.path,
        config: { access: e.access },
        schema: {
          tags: [e.tag, ...(e.access === 'admin' ? ['admin'] : [])],
          summary: e.summary,
          ...(e.query ? { querystring: e.query } : {}),
          ...(e.body ? { body: e.body } : {}),
          response: { 200: envelope, 201: envelope },
          ...(e.access === 'public' ? {} : { security: [{ bearer: [] }] }),
        },
        handler: async (request, reply) => {
          // The authentication hook has run; this only keeps CallerOf honest should that ever change.
          if ((e.access === 'user' || e.access === 'admin') && !request.user) throw unauthorized()
          const answer = await handler(request as EndpointRequest<typeof e>, reply)
          return reply.code(answer.code).send(answer)
        },
      })
    },
  }
}

/**
 * One area of the API (auth, users, shares, …). `routes` are registered in the authenticated /api
 * scope (each endpoint's `access` decides who may call it); `admin` in a sub-scope whose hook refuses
 * everyone but admins, so an admin route cannot forget its guard.
 */
export type ModuleDefinition = {
  name: string
  routes?: (r: Router) => void | Promise<void>
  admin?: (r: Router) => void | Promise<void>
}

export function defineModule(m: ModuleDefinition): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (app) => {
    if (m.routes) await m.routes(router(app, 'api'))
    if (m.admin) {
      const registerAdmin = m.admin
      await app.register(async (admin) => {
        // Before validation: a non-admin learns nothing of an admin endpoint's schema (403, not 422).
        admin.addHook('preValidation', async (request) => {
          if (request.user?.role !== 'admin') throw forbidden()
        })
        await registerAdmin(router(admin, 'admin'))
      })
    }
  }
  Object.defineProperty(plugin, 'name', { value: `module:${m.name}` })
  return plugin
}

/**
 * The /api scope's hook: authentication is on by default. A route opts out with `config.access`
 * `public` (anyone) or `optional` (the caller identified when a valid token is sent). Written with
 * Fastify's `done` so that the calls with nothing to look up (a public route, an optional one without
 * an `Authorization` header: every visitor's share lookup) go on at once, without a promise per request
 * (decision 164).
 */
export function authenticateByDefault(this: FastifyInstance, request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  const access = request.routeOptions.config.access ?? 'user'
  if (access === 'public' || (access === 'optional' && !request.headers.authorization)) return done()
  const check = access === 'optional' ? this.identify(request) : access === 'admin' ? this.requireAdmin(request) : this.authenticate(request)
  check.then(() => done(), done)
}
