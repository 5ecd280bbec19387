import type { FastifyBaseLogger } from 'fastify'

type Leveled = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }
type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * A request's logger until it first writes at an enabled level: then pino's child with the request's
 * bindings, made once. A class, so that every request's logger is one small object of one shape with
 * its methods on the prototype (decision 161: the first version built six closures and an accessor per
 * request — a new hidden class each time — and cost more than the eager child it replaced).
 */
class LazyChild {
  private made: Leveled | undefined
  constructor(
    private readonly parent: Leveled,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private real(): Leveled {
    return (this.made ??= this.parent.child(this.bindings, this.opts) as Leveled)
  }
  get level(): string {
    return (this.made ?? this.parent).level
  }
  set level(value: string) {
    this.real().level = value
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled!(level)
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, opts)
  }
  silent() {}
  private writeAt(level: Level, args: unknown[]) {
    if (this.isLevelEnabled(level)) (this.real()[level] as (...a: unknown[]) => void)(...args)
  }
  fatal(...args: unknown[]) {
    this.writeAt('fatal', args)
  }
  error(...args: unknown[]) {
    this.writeAt('error', args)
  }
  warn(...args: unknown[]) {
    this.writeAt('warn', args)
  }
  info(...args: unknown[]) {
    this.writeAt('info', args)
  }
  debug(...args: unknown[]) {
    this.writeAt('debug', args)
  }
  trace(...args: unknown[]) {
    this.writeAt('trace', args)
  }
}

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
  return new LazyChild(p, bindings, opts) as unknown as FastifyBaseLogger
}
