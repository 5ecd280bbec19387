import crypto from 'node:crypto'
import Fastify, { type FastifyServerOptions, LogController } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { HEALTH_PATH } from '#contract/http.ts'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import { claimMinute } from './db/sweeps.ts'
import { authenticateByDefault } from './http/module.ts'
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
const MODULES = [authModule, usersModule, menuModule, outboxModule, sharesModule, shareModule, ordersModule, paymentsModule, incomeModule, channelsModule, packagesModule, subscriptionsModule, withdrawalsModule, auditModule, oauthModule, moderationModule, oversightModule, chatModule, messagesModule, eventsModule, statisticsModule]

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
    genReqId: () => crypto.randomUUID(),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(responseSerializerCompiler)

  await app.register(envelope)
  await app.register(helmet)
  await app.register(formbody)
  await app.register(swagger)
  await app.register(services, { db: opts.db, config: opts.config, providers: opts.providers, limits: opts.limits, payments: opts.payments, oauth: opts.oauth, clock: opts.clock })
  await app.register(authPlugin)

  app.get(HEALTH_PATH, { schema: { hide: true } }, async (_req, reply) => reply.ok({ status: 'up' }))
  // The API proper: authentication on by default; each module's endpoints say who may call them.
  await app.register(async (api) => {
    // Before validation, so a caller without the right to an endpoint gets 401/403, never its 422.
    api.addHook('preValidation', authenticateByDefault)
    for (const module of MODULES) await api.register(module)
  })

  if (opts.sweepOrders) {
    const sweep = () => {
      expirePendingOrders(app.db).catch((err) => app.log.error({ err }, 'order expiry sweep failed'))
      finishOwedRefunds(app.db, app.payments, { ...refundContext(app), log: app.log }).catch((err) => app.log.error({ err }, 'owed refund sweep failed'))
      pruneStatisticsLog(app.db)
        .then(() => keepDefaultRanges(app.db, app.clock()))
        .catch((err) => app.log.error({ err }, 'statistics upkeep failed'))
    }
    // Once per minute across the cluster, not once per instance: the first instance to tick in a minute
    // claims it (decision 134).
    const timer = setInterval(() => {
      claimMinute(app.db, 'minute', app.clock()).then(
        (mine) => mine && sweep(),
        (err) => app.log.error({ err }, 'sweep claim failed'),
      )
    }, 60_000)
    timer.unref()
    app.addHook('onClose', async () => clearInterval(timer))
    // The default ranges are summed before the API answers (≈ 1 s at 1,000,000 orders), for at most
    // 5 s: past that the API starts and the sums finish behind it.
    app.addHook('onReady', async () => {
      const kept = keepDefaultRanges(app.db, app.clock()).catch((err) => app.log.error({ err }, 'statistics upkeep failed'))
      await Promise.race([kept, new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
    })
  }
  return app
}
