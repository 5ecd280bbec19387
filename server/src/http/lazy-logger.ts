import type { FastifyBaseLogger } from 'fastify'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const
type Leveled = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }
type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>

/**
 * Fastify gives every request a child logger with its request id bound, and pino serializes the bindings
 * when the child is made: 2% of the API's time under load on GET /api/share (decision 150), for a logger
 * most requests never write to at the default level. This child is made at the first line written at an
 * enabled level; what it writes is what the eager child would have written.
 */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions = {}): FastifyBaseLogger {
  const p = parent as Leveled
  // A route with a level or serializers of its own, or a logger that cannot say its levels: the real child at once.
  if (opts.level !== undefined || opts.serializers !== undefined || typeof p.isLevelEnabled !== 'function') return parent.child(bindings, opts)
  let child: Leveled | undefined
  const real = () => (child ??= parent.child(bindings, opts) as Leveled)
  const isEnabled = (level: string) => (child ?? p).isLevelEnabled!(level)
  const lazy: Record<string, unknown> = {
    child: (b: Bindings, o?: ChildLoggerOptions) => real().child(b, o),
    isLevelEnabled: isEnabled,
    silent: () => {},
  }
  Object.defineProperty(lazy, 'level', {
    get: () => (child ?? parent).level,
    set: (value: string) => void (real().level = value),
    enumerable: true,
  })
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (isEnabled(level)) (real()[level] as (...a: unknown[]) => void)(...args)
    }
  }
  return lazy as unknown as FastifyBaseLogger
}
