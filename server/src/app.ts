import crypto from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { HEALTH_PATH } from '#contract/http.ts'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import { claimMinute } from './db/sweeps.ts'
import { lazyChildLogger } from './http/lazy-logger.ts'
import { authenticateByDefault } from './http/module.ts'
import { metrics, registerMetrics } from './metrics.ts'
import { responseSerializerCompiler } from './http/serializer.ts'
import { auditModule } from './modules/audit/index.ts'
import { oversightModule } from './modules/oversight/index.ts'
import { authModule } from './modules/auth/index.ts'
import { channelsModule } from './modules/channels/index.ts'
import { chatModule } from './modules/chat/index.ts'
import { eventsModule } from './modules/events/index.ts'
import { incomeModule } from './modules/income/index.ts'
import { menuModule } from './modules/menu/index.ts'
import { oauthModule } from './modules/oauth/index.ts'
import { moderationModule } from './modules/moderation/index.ts'
import { linkcheckModule, type Resolver, sweepDeadLinkRefunds, sweepLinks } from './modules/linkcheck/index.ts'
import { messagesModule } from './modules/messages/index.ts'
import { expirePendingOrders, finishOwedRefunds, ordersModule, refundContext } from './modules/orders/index.ts'
import { outboxModule } from './modules/outbox/index.ts'
import { packagesModule } from './modules/packages/index.ts'
import { paymentsModule } from './modules/payments/index.ts'
import { shareModule } from './modules/share/index.ts'
import { sharesModule } from './modules/shares/index.ts'
import { subscriptionsModule } from './modules/subscriptions/index.ts'
import { usersModule } from './modules/users/index.ts'
import { withdrawalsModule } from './modules/withdrawals/index.ts'
import { keepDefaultRanges, pruneStatisticsLog, statisticsModule } from './modules/statistics/index.ts'
import authPlugin from './plugins/app/auth.ts'
import formbody from './plugins/external/formbody.ts'
import helmet from './plugins/external/helmet.ts'
import swagger from './plugins/external/swagger.ts'
import envelope from './plugins/app/envelope.ts'
import type { RateLimits } from './plugins/app/rate-limits.ts'
import services, { type Providers } from './plugins/app/services.ts'
import type { PaymentOverrides } from './providers/payments/index.ts'
import type { OAuthOverrides } from './providers/oauth/index.ts'

/** The API's areas, one module each (server/src/modules/<area>). */
const MODULES = [authModule, usersModule, menuModule, outboxModule, sharesModule, shareModule, ordersModule, paymentsModule, incomeModule, channelsModule, packagesModule, subscriptionsModule, withdrawalsModule, auditModule, oauthModule, moderationModule, oversightModule, chatModule, messagesModule, eventsModule, statisticsModule, linkcheckModule]

export type BuildOptions = {
  config: Config
  db: Database
  providers?: Partial<Providers>
  limits?: RateLimits
  payments?: PaymentOverrides
  /** QQ / WeChat login providers (tests: pointed at local fakes). */
  oauth?: OAuthOverrides
  /** The time now (default: the system clock); tests pass a movable one. */
  clock?: () => Date
  /** How the link checker resolves names (tests: a fake DNS; default the system's). */
  linkResolver?: Resolver
  /**
   * Every minute: expire pending orders, follow up refunds not yet confirmed by a gateway, prune the
   * statistics log and keep the default statistics ranges summed (off in tests that drive time themselves).
   */
  sweepOrders?: boolean
  logger?: FastifyServerOptions['logger']
}

/** Builds the marketplace API from its plugins and route areas (STYLE: the API). */
export async function buildApp(opts: BuildOptions) {
  const trust = opts.config.trustProxy
  const app = Fastify({
    logger: opts.logger ?? { level: opts.config.logLevel },
    // A number is that many hops (Fastify's own reading of a number, which its types leave out).
    trustProxy: typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust,
    bodyLimit: 256 * 1024,
    logController: new LogController({ disableRequestLogging: !opts.config.logRequests }),
    // The console forwards its request id so one request can be followed through both logs.
    requestIdHeader: 'x-request-id',
    // While stopping (decision 137), a request that still arrives on a kept-alive connection is served
    // (with `Connection: close`) rather than refused with 503: a load balancer does not retry a refused
    // POST, and the stop waits for it anyway.
    return503OnClosing: false,
    genReqId: () => crypto.randomUUID(),
    // Each request's logger is made when it first writes (decision 150).
    childLoggerFactory: lazyChildLogger,
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(responseSerializerCompiler)

  await app.register(envelope)
  await app.register(helmet)
  await app.register(formbody)
  await app.register(swagger)
  await app.register(services, { db: opts.db, config: opts.config, providers: opts.providers, limits: opts.limits, payments: opts.payments, oauth: opts.oauth, clock: opts.clock, linkResolver: opts.linkResolver })
  await app.register(authPlugin)

  registerMetrics(app)
  app.get(HEALTH_PATH, { schema: { hide: true } }, async (_req, reply) => reply.ok({ status: 'up' }))
  // The API proper: authentication on by default; each module's endpoints say who may call them.
  await app.register(async (api) => {
    // Before validation, so a caller without the right to an endpoint gets 401/403, never its 422.
    api.addHook('preValidation', authenticateByDefault)
    for (const module of MODULES) await api.register(module)
  })

  if (opts.sweepOrders) {
    const sweep = () => {
      metrics.sweeps.inc()
      expirePendingOrders(app.db).catch((err) => app.log.error({ err }, 'order expiry sweep failed'))
      finishOwedRefunds(app.db, app.payments, { ...refundContext(app), log: app.log }).catch((err) => app.log.error({ err }, 'owed refund sweep failed'))
      pruneStatisticsLog(app.db).catch((err) => app.log.error({ err }, 'statistics log pruning failed'))
      linkSweep(app)
    }
    // Once per minute across the cluster, not once per instance: the first instance to tick in a minute
    // claims it (decision 134).
    const timer = setInterval(() => {
      // The kept statistics ranges live in each instance's memory (decisions 101, 144): every instance keeps its own.
      keepDefaultRanges(app.db, app.clock()).catch((err) => app.log.error({ err }, 'statistics upkeep failed'))
      claimMinute(app.db, 'minute', app.clock()).then(
        (mine) => mine && sweep(),
        (err) => app.log.error({ err }, 'sweep claim failed'),
      )
    }, 60_000)
    timer.unref()
    app.addHook('onClose', async () => clearInterval(timer))
    // The default ranges and the kept blocks of the last year (decision 144) are summed before the API
    // answers (≈ 5 s at 1,000,000 orders on a quiet machine), for at most 8 s (Fastify gives a start-up
    // hook 10): past that the API starts and the sums finish behind it (a request meanwhile sums what it
    // needs itself, exact either way).
    app.addHook('onReady', async () => {
      const kept = keepDefaultRanges(app.db, app.clock()).catch((err) => app.log.error({ err }, 'statistics upkeep failed'))
      await Promise.race([kept, new Promise((resolve) => setTimeout(resolve, 8_000).unref())])
    })
  }
  return app
}

const linkSweepsRunning = new WeakSet<FastifyInstance>()
/** The link checks of the schedule and the dead-link refunds past their fix window (issue 25); one round at a time per app. */
function linkSweep(app: FastifyInstance) {
  if (linkSweepsRunning.has(app)) return
  linkSweepsRunning.add(app)
  sweepLinks(app)
    .then(() => sweepDeadLinkRefunds(app))
    .catch((err) => app.log.error({ err }, 'link check sweep failed'))
    .finally(() => linkSweepsRunning.delete(app))
}
