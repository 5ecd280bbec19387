import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/client.ts'
import { type RateLimits, createRateLimits } from './rate-limits.ts'
import { AliyunSmsSender } from '../../providers/aliyun-sms.ts'
import { type CodeSender, OutboxSender, SmtpSender } from '../../providers/codes.ts'
import { ContentCipher } from '../../modules/shares/index.ts'
import { PublicShareCache, VisitRecorder } from '../../modules/share/index.ts'
import { type EventBus, memoryBus, redisBus } from '../../modules/bus/index.ts'
import { channelOrders, sellerFeeRateBp } from '../../modules/channels/index.ts'
import type { OrderEffects } from '../../modules/orders/index.ts'
import { packageOrders } from '../../modules/subscriptions/index.ts'
import { createPaymentProviders, type PaymentOverrides, type PaymentProviders } from '../../providers/payments/index.ts'
import { LinkChecker, linkCheckSettings, type Resolver } from '../../modules/linkcheck/index.ts'
import { createOAuthProviders, type OAuthOverrides, type OAuthProviders } from '../../providers/oauth/index.ts'

export type Providers = { mail: CodeSender; sms: CodeSender }

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    config: Config
    providers: Providers
    limits: RateLimits
    payments: PaymentProviders
    /** QQ / WeChat login (issue 12). */
    oauth: OAuthProviders
    cipher: ContentCipher
    shareCache: PublicShareCache
    visits: VisitRecorder
    /** Live events for the SSE streams: in process, or across instances through Redis (decision 080). */
    events: EventBus
    /** The time now. Everything that depends on it (settlement, expiry, days) asks here; tests move it. */
    clock: () => Date
    /** What orders of channels and packages open and take back (decision 118). */
    orderEffects: OrderEffects
    /** The link checker (issue 25): guarded fetches, per-host limits, the background checks of publish, edit and report. */
    links: LinkChecker
  }
}

/**
 * Issue 13: without a mail or SMS provider the codes of sign-up and password reset reach nobody but
 * this log and the admin's code outbox. The start says so; a production start with neither, as an error.
 */
export function codeDeliveryWarning(config: Pick<Config, 'env' | 'smtpUrl' | 'sms'>): { level: 'warn' | 'error'; message: string } | null {
  const missing = [!config.smtpUrl && 'email (SMTP_URL)', !config.sms && 'SMS (SMS_PROVIDER)'].filter(Boolean)
  if (!missing.length) return null
  const level = config.env === 'production' && missing.length === 2 ? 'error' : 'warn'
  return {
    level,
    message: `CODES: no ${missing.join(' or ')} provider — those verification codes are NOT delivered to users; they are written to this log and listed on the admin page System → Code outbox (/system/outbox).`,
  }
}

export type ServicesOptions = { db: Database; config: Config; providers?: Partial<Providers>; limits?: RateLimits; payments?: PaymentOverrides; oauth?: OAuthOverrides; clock?: () => Date; linkResolver?: Resolver }

/**
 * Decorates the app with the database, config, providers and rate limits. Providers are chosen from
 * config (SMTP_URL, SMS_PROVIDER); without them codes go to the dev outbox. Tests pass their own.
 */
export default fp(
  async function services(app: FastifyInstance, opts: ServicesOptions) {
    const { db, config } = opts
    app.decorate('db', db)
    app.decorate('config', config)
    app.decorate('clock', opts.clock ?? (() => new Date()))
    const outbox = new OutboxSender(db, app.log)
    app.decorate('providers', {
      mail: opts.providers?.mail ?? (config.smtpUrl ? new SmtpSender(config.smtpUrl, config.mailFrom) : outbox),
      sms: opts.providers?.sms ?? (config.sms ? new AliyunSmsSender(config.sms) : outbox),
    })
    app.decorate('payments', await createPaymentProviders(config, opts.payments))
    app.decorate('oauth', createOAuthProviders(config, opts.oauth))
    app.decorate('cipher', new ContentCipher(config.secrets.contentKey))
    const shareCache = new PublicShareCache(db)
    app.decorate('shareCache', shareCache)
    const visits = new VisitRecorder(
      db,
      (err) => app.log.error({ err }, 'writing visits failed'),
      (ids) => shareCache.invalidateIds(ids),
    )
    app.decorate('visits', visits)
    app.addHook('onClose', async () => visits.flush())
    const limits = opts.limits ?? (await createRateLimits(config.redisUrl))
    app.decorate('limits', limits)
    app.addHook('onClose', async () => limits.close())
    const events = config.redisUrl ? await redisBus(db, config.redisUrl, (err) => app.log.error({ err }, 'live events (Redis)')) : memoryBus(db, (err) => app.log.error({ err }, 'live events (journal)'))
    app.decorate('events', events)
    app.decorate('orderEffects', { channel: channelOrders, package: packageOrders, saleFeeRateBp: sellerFeeRateBp })
    app.addHook('onClose', async () => events.close())
    const links = new LinkChecker(linkCheckSettings(config), opts.linkResolver, (err) => app.log.warn({ err }, 'link check failed'))
    app.decorate('links', links)
    app.addHook('onClose', async () => links.idle())
  },
  { name: 'services' },
)
