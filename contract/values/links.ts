/**
 * Link checks (issue 25): the states a url or netdisk share's link can be in, why it was checked, and
 * what a buyer's dead-link refund request went through — values both sides use, without zod.
 */
export const LINK_RESULTS = ['ok', 'dead', 'unknown'] as const
export type LinkResult = (typeof LINK_RESULTS)[number]
/** A share's link state: never checked yet, or the last result. */
export const LINK_STATES = ['unchecked', ...LINK_RESULTS] as const
export type LinkState = (typeof LINK_STATES)[number]
export const LINK_TRIGGERS = ['publish', 'edit', 'schedule', 'report', 'admin'] as const
export type LinkTrigger = (typeof LINK_TRIGGERS)[number]
/** requested: waits for the fix window; refunded: through the refund path; cancelled: the link was fixed first. */
export const DEAD_LINK_REFUND_STATES = ['requested', 'refunded', 'cancelled'] as const
export type DeadLinkRefundState = (typeof DEAD_LINK_REFUND_STATES)[number]
/** Dead twice in a row: the share stops selling (issue 25, "two strikes"). */
export const DEAD_STRIKES = 2
