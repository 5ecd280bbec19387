import { DEAD_STRIKES, type LinkResult } from '#contract/links.ts'

const HOUR = 3_600_000

/** The host a link points at, lower case; null for something that is not an http(s) URL. */
export function hostOf(link: string): string | null {
  try {
    const url = new URL(link.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : null
  } catch {
    return null
  }
}

/** Dead results in a row after this one: an unknown answer neither counts nor resets the strikes. */
export function nextStreak(streak: number, result: LinkResult): number {
  return result === 'dead' ? streak + 1 : result === 'ok' ? 0 : streak
}

/** What a result does to the sales: stop them on the second strike, resume them on a pass. */
export function salesMove(stopped: boolean, streak: number, result: LinkResult): 'stop' | 'resume' | null {
  if (!stopped && result === 'dead' && streak >= DEAD_STRIKES) return 'stop'
  if (stopped && result === 'ok') return 'resume'
  return null
}

/**
 * When the schedule checks a link next: within the day (22–24 h, spread so the round does not bunch
 * up), every 4–6 h for a share that sells; a dead or unclear link is looked at again within the hour
 * so a second strike (or the all-clear) comes soon.
 */
export function nextCheckAt(now: Date, o: { sells: boolean; result: LinkResult | null; stopped: boolean }, random = Math.random): Date {
  let [lo, hi] = o.sells ? [4, 6] : [22, 24]
  if ((o.result === 'dead' || o.result === 'unknown') && !o.stopped) [lo, hi] = [0.5, 1]
  return new Date(now.getTime() + (lo + (hi - lo) * random()) * HOUR)
}

/** The first scheduled check of a link not checked yet: anywhere in the next day. */
export const firstCheckAt = (now: Date, random = Math.random) => new Date(now.getTime() + random() * 24 * HOUR)

/** Whether an order was paid recently enough for a dead-link refund. */
export function withinRefundWindow(paidAt: Date | null, now: Date, refundDays: number): boolean {
  return paidAt !== null && now.getTime() - paidAt.getTime() <= refundDays * 24 * HOUR
}

/** When a requested refund becomes automatic: the fix window after the seller was told. */
export const refundDueAt = (stoppedAt: Date, fixHours: number) => new Date(stoppedAt.getTime() + fixHours * HOUR)

/** The system message to the seller: plain text in both languages, with the edit page's address (a link in My messages). */
export function deadLinkMessage(share: { id: number; unicode: string; title: string }, reason: string | null, fixHours: number, webUrl = ''): string {
  const why = reason ?? 'dead'
  const edit = `${webUrl}/share-manage/edit/${share.id}`
  return (
    `【链接失效】您的分享「${share.title}」(${share.unicode}) 的链接连续两次检测失效（${why}），已暂停销售。请在 ${fixHours} 小时内修改链接：${edit} ，检测通过后自动恢复销售，无需重新审核；逾期未修复，已申请退款的买家将自动退款。\n` +
    `[Dead link] The link of your share "${share.title}" (${share.unicode}) failed two checks in a row (${why}) and its sales are stopped. Fix the link within ${fixHours} hours: ${edit} — once it passes the check the share is back on sale without a new review; buyers who asked for a refund are refunded when the window is over.`
  )
}
