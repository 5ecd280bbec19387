import { Redis } from 'ioredis'
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

/**
 * Brute-force and abuse limits, shared across API instances through Redis when REDIS_URL is set, in
 * process otherwise (docs/decisions: rate-limiter-flexible). Each window is fixed: it starts with the
 * first point spent and a key that ran out waits for the rest of it, never longer.
 */
export type RateLimits = {
  /**
   * Failed logins (and wrong current passwords) per account — keyed by the account when the typed
   * name, email or phone resolves to one, else by the typed text: 5 per 15 minutes.
   */
  loginAccount: RateLimiterAbstract
  /**
   * Failed logins per IP: a hard cap far above what people behind one NAT mistype, so below it a
   * correct password always gets in (docs/decisions/040-login-throttling.md).
   */
  loginIp: RateLimiterAbstract
  /** Code sends per IP: 20 per hour (per-target limits live in the database). */
  codeIp: RateLimiterAbstract
  /** Orders created per IP: 30 per 10 minutes (a buyer needs a handful; a flood of Pending orders is abuse). */
  orderIp: RateLimiterAbstract
  /** Reports sent per IP: 20 per hour (issue 9; a visitor reports a few shares, a flood is abuse). */
  reportIp: RateLimiterAbstract
  /** Reports of one share from one IP (`ip|shareId`): 3 per day — one report, a correction, a follow-up. */
  reportShare: RateLimiterAbstract
  /** Chat lines and private messages per writer (account, or a visitor's order): 20 per minute (issue 10). */
  message: RateLimiterAbstract
  close: () => Promise<void>
}

type Limit = { points: number; duration: number }
type LimitName = Exclude<keyof RateLimits, 'close'>

export const LIMITS: Record<LimitName, Limit> = {
  loginAccount: { points: 5, duration: 15 * 60 },
  loginIp: { points: 100, duration: 15 * 60 },
  codeIp: { points: 20, duration: 60 * 60 },
  orderIp: { points: 30, duration: 10 * 60 },
  reportIp: { points: 20, duration: 60 * 60 },
  reportShare: { points: 3, duration: 24 * 60 * 60 },
  message: { points: 20, duration: 60 },
}

const PREFIXES: Record<LimitName, string> = { loginAccount: 'login-account', loginIp: 'login-ip', codeIp: 'code-ip', orderIp: 'order-ip', reportIp: 'report-ip', reportShare: 'report-share', message: 'message' }

/** `overrides` lets a test shrink a limit instead of spending hundreds of requests on it. */
export async function createRateLimits(redisUrl?: string, overrides: Partial<Record<LimitName, Limit>> = {}): Promise<RateLimits> {
  const limits = { ...LIMITS, ...overrides }
  const each = (make: (name: LimitName) => RateLimiterAbstract) => ({
    loginAccount: make('loginAccount'),
    loginIp: make('loginIp'),
    codeIp: make('codeIp'),
    orderIp: make('orderIp'),
    reportIp: make('reportIp'),
    reportShare: make('reportShare'),
    message: make('message'),
  })
  if (redisUrl) {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 1 })
    await redis.connect()
    return {
      ...each((n) => new RateLimiterRedis({ storeClient: redis, keyPrefix: `payshare:${PREFIXES[n]}`, ...limits[n] })),
      close: async () => {
        redis.disconnect()
      },
    }
  }
  return { ...each((n) => new RateLimiterMemory(limits[n])), close: async () => {} }
}

/** Seconds until the key may try again, or 0 when it still has points. */
export async function blockedFor(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const res = await limiter.get(key)
  if (!res || res.remainingPoints > 0) return 0
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000))
}

/** Spends a point; returns the seconds to wait when that exhausted the key, else 0. */
export async function spend(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key)
    return 0
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000))
    throw e
  }
}
