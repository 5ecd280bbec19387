/**
 * Per-host politeness of the link checker (issue 25): at most `max` checks of one host at a time, and
 * their starts at least `intervalMs` apart; hosts do not wait on each other. Counts the peak of
 * concurrent checks, per host and in all (the bench and the schedule's tests read them).
 */
export class HostLimiter {
  private hosts = new Map<string, { active: number; waiting: (() => void)[]; nextStart: number }>()
  private active = 0
  peak = 0
  readonly peakByHost = new Map<string, number>()

  constructor(
    private readonly max: number,
    private readonly intervalMs: number,
  ) {}

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    let h = this.hosts.get(host)
    if (!h) this.hosts.set(host, (h = { active: 0, waiting: [], nextStart: 0 }))
    if (h.active >= this.max) await new Promise<void>((resolve) => h.waiting.push(resolve))
    else h.active++
    // The slot is ours (handed over by the one that left, or taken above); now wait our turn to start.
    const now = Date.now()
    const start = Math.max(now, h.nextStart)
    h.nextStart = start + this.intervalMs
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now))
    this.active++
    this.peak = Math.max(this.peak, this.active)
    this.peakByHost.set(host, Math.max(this.peakByHost.get(host) ?? 0, h.active))
    try {
      return await fn()
    } finally {
      this.active--
      const next = h.waiting.shift()
      if (next) next()
      else {
        h.active--
        if (h.active === 0 && h.nextStart <= Date.now()) this.hosts.delete(host)
      }
    }
  }
}
