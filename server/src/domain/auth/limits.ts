import { Redis } from 'ioredis'
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

/**
 * Brute-force limits shared across API instances through Redis when REDIS_URL is set, in process
 * otherwise (docs/decisions: rate-limiter-flexible).
 */
export type RateLimits = {
  /** Failed logins per account name: 5 per 15 minutes, then locked for the rest of the window. */
  loginAccount: RateLimiterAbstract
  /** Failed logins per IP: 30 per 15 minutes. */
  loginIp: RateLimiterAbstract
  /** Code sends per IP: 20 per hour (per-target limits live in the database). */
  codeIp: RateLimiterAbstract
  /** Orders created per IP: 30 per 10 minutes (a buyer needs a handful; a flood of Pending orders is abuse). */
  orderIp: RateLimiterAbstract
  close: () => Promise<void>
}

const LIMITS = {
  loginAccount: { points: 5, duration: 15 * 60 },
  loginIp: { points: 30, duration: 15 * 60 },
  codeIp: { points: 20, duration: 60 * 60 },
  orderIp: { points: 30, duration: 10 * 60 },
}

export async function createRateLimits(redisUrl?: string): Promise<RateLimits> {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 1 })
    await redis.connect()
    const make = (keyPrefix: string, o: { points: number; duration: number }) =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `payshare:${keyPrefix}`, ...o })
    return {
      loginAccount: make('login-account', LIMITS.loginAccount),
      loginIp: make('login-ip', LIMITS.loginIp),
      codeIp: make('code-ip', LIMITS.codeIp),
      orderIp: make('order-ip', LIMITS.orderIp),
      close: async () => {
        redis.disconnect()
      },
    }
  }
  return {
    loginAccount: new RateLimiterMemory(LIMITS.loginAccount),
    loginIp: new RateLimiterMemory(LIMITS.loginIp),
    codeIp: new RateLimiterMemory(LIMITS.codeIp),
    orderIp: new RateLimiterMemory(LIMITS.orderIp),
    close: async () => {},
  }
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
