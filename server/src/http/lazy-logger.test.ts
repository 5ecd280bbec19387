import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazyChildLogger } from './lazy-logger.ts'

/** A pino logger whose lines are kept, parsed, without their time. */
function capture(level: string) {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) {
        const { time: _time, ...rest } = JSON.parse(l) as Record<string, unknown>
        lines.push(rest)
      }
      done()
    },
  })
  // Fastify's own pino, as the API makes it.
  return { lines, logger: Fastify({ logger: { level, stream } }).log }
}

describe('the lazy request logger (decision 150)', () => {
  it('writes what the eager child writes, and makes no child for lines below the level', () => {
    const eager = capture('warn')
    const lazy = capture('warn')
    const childOf = [eager.logger.child({ reqId: 'r1' }), lazyChildLogger(lazy.logger, { reqId: 'r1' })]
    let made = 0
    const realChild = lazy.logger.child
    lazy.logger.child = function (this: typeof lazy.logger, ...a: Parameters<typeof realChild>) {
      made++
      return realChild.apply(this, a)
    } as typeof realChild
    const lazyChild = lazyChildLogger(lazy.logger, { reqId: 'r2' })
    lazyChild.info({ a: 1 }, 'not written')
    lazyChild.debug('not written either')
    expect(made).toBe(0)
    expect(lazyChild.level).toBe('warn')
    for (const log of childOf) {
      log.info('below the level')
      log.warn({ orderNo: 'X1' }, 'payment query failed')
      log.error({ err: new Error('boom') }, 'unhandled error')
      log.child({ part: 'inner' }).warn('from a child')
    }
    expect(lazy.lines).toEqual(eager.lines)
    expect(eager.lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['r1', 'payment query failed'],
      ['r1', 'unhandled error'],
      ['r1', 'from a child'],
    ])
  })

  it("is what Fastify hands a request, with the request's id", async () => {
    const { lines, logger } = capture('warn')
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLogger, genReqId: () => 'req-42' })
    app.get('/', async (request) => {
      request.log.info('quiet')
      request.log.warn('loud')
      return { ok: true }
    })
    expect((await app.inject({ url: '/' })).statusCode).toBe(200)
    await app.close()
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([['req-42', 'loud']])
  })
})

describe('the lazy request logger under load (decision 161)', () => {
  it('is one small object per request, its methods shared: no closures or accessors made per request', () => {
    const { logger } = capture('warn')
    const a = lazyChildLogger(logger, { reqId: 'a' })
    const b = lazyChildLogger(logger, { reqId: 'b' })
    // Per-request closures and a per-object accessor gave every request's logger a hidden class of its
    // own, made in the old generation: 9% of the API's time in the garbage collector under load.
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b))
    expect(Object.values(a).filter((v) => typeof v === 'function')).toEqual([])
    expect(Object.getOwnPropertyDescriptor(a, 'level')).toBeUndefined()
    expect(a.warn).toBe(b.warn)
  })
})
