import type { LinkTrigger } from '#contract/links.ts'
import type { Config } from '../../config.ts'
import { checkLink, type CheckOutcome } from './check.ts'
import type { Resolver } from './guard.ts'
import { HostLimiter } from './limiter.ts'

export type LinkCheckSettings = NonNullable<Config['linkCheck']>

/** The defaults (issue 25): refunds asked within 7 days, made after 48 h unfixed; 20 checks per host at a time. */
export function linkCheckSettings(config: Pick<Config, 'linkCheck'>): LinkCheckSettings {
  return config.linkCheck ?? { allowPrivate: false, refundDays: 7, fixHours: 48, hostConcurrency: 20, hostIntervalMs: 25, timeoutMs: 10_000, checkOnSave: true }
}

/**
 * The app's link checker (decorated as `app.links`): fetches through the guard and the per-host limiter,
 * and runs the checks other modules ask for after a publish, an edit or a report in the background —
 * `idle()` waits for those (tests, shutdown).
 */
export class LinkChecker {
  readonly limiter: HostLimiter
  private pending = new Set<Promise<unknown>>()
  /** Set by the linkcheck module once the app is built: checks a share and records the result. */
  recorder: ((shareId: number, trigger: LinkTrigger) => Promise<unknown>) | null = null

  constructor(
    readonly settings: LinkCheckSettings,
    private readonly resolver?: Resolver,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.limiter = new HostLimiter(settings.hostConcurrency, settings.hostIntervalMs)
  }

  fetch(host: string, link: string): Promise<CheckOutcome> {
    return this.limiter.run(host, () => checkLink(link, { resolver: this.resolver, allowPrivate: this.settings.allowPrivate, timeoutMs: this.settings.timeoutMs }))
  }

  /** A share's link was saved or reported: checked in the background, the answer not waited for. */
  saved(shareId: number, trigger: LinkTrigger): void {
    if (!this.recorder || !this.settings.checkOnSave) return
    const run = this.recorder(shareId, trigger).catch(this.onError)
    this.pending.add(run)
    void run.finally(() => this.pending.delete(run))
  }

  /** A share's link was saved and the caller waits for the answer (an edit of a stopped share's link). */
  async now(shareId: number, trigger: LinkTrigger): Promise<void> {
    await this.recorder?.(shareId, trigger)
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending])
  }
}
