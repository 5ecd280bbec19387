import type { ChannelStatus } from '#contract/channels.ts'
import { addDays, monthStartDay } from '#contract/days.ts'

/**
 * The previous Asia/Shanghai calendar month of `now`: its name (yyyy-MM) and its days as a half-open
 * range [from, to) of yyyy-MM-dd (compared as text, like `seller_daily_income.day`).
 */
export function lastMonth(now: Date): { month: string; from: string; to: string } {
  const to = monthStartDay(now)
  const from = `${addDays(to, -1).slice(0, 7)}-01`
  return { month: from.slice(0, 7), from, to }
}

/** Why a seller may not open a channel now (a msg key), or null when they may (issue 7). */
export function openRefusal(channel: { status: ChannelStatus; minimumIncomeFen: number }, lastMonthIncomeFen: number): string | null {
  if (channel.status !== 'enable') return 'channels.disabled'
  if (lastMonthIncomeFen < channel.minimumIncomeFen) return 'channels.belowMinimum'
  return null
}

/** Two channel names are the same when they differ only in case or surrounding / repeated spaces. */
export const sameNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()
