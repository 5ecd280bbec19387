/**
 * The share values the console's components use (types, statuses, sorts, limits, the admin's moves), in
 * a module without zod so a page's first load does not carry the schemas (issue 11, decision 099);
 * `contract/shares.ts` re-exports them.
 */
export const SHARE_TYPES = ['text', 'url', 'netdisk'] as const
export type ShareType = (typeof SHARE_TYPES)[number]
/** DESIGN §3 share status machine. */
export const SHARE_STATUSES = ['under_review', 'approved', 'reported_invalid', 'violation'] as const
export type ShareStatus = (typeof SHARE_STATUSES)[number]
export const SUBSCRIPTION_STATUSES = ['open', 'close'] as const

/**
 * DESIGN §3 share status machine, the moves an admin makes: under_review → approved; approved →
 * reported_invalid (taken down, appealable) → approved (recovered); any → violation (banned, final).
 * One description for the API (which refuses other moves) and the console (which offers these).
 */
export const SHARE_ADMIN_MOVES = { approve: 'approved', takeDown: 'reported_invalid', ban: 'violation' } as const satisfies Record<string, ShareStatus>
export type ShareAdminMove = keyof typeof SHARE_ADMIN_MOVES
const ADMIN_MOVES_FROM: Record<ShareStatus, readonly ShareAdminMove[]> = {
  under_review: ['approve', 'ban'],
  approved: ['takeDown', 'ban'],
  reported_invalid: ['approve', 'ban'],
  violation: [],
}

/** The moves an admin may make from a status, in the order the console shows them. */
export function adminMovesFrom(status: ShareStatus): readonly ShareAdminMove[] {
  return ADMIN_MOVES_FROM[status]
}

/** Whether an admin may set `to` on a share in `from` (keeping the status is always allowed). */
export function canAdminMove(from: ShareStatus, to: ShareStatus): boolean {
  return from === to || adminMovesFrom(from).some((m) => SHARE_ADMIN_MOVES[m] === to)
}

export const PRICE_MIN_YUAN = 0.01
export const PRICE_MAX_YUAN = 10000
export const TITLE_MAX = 100
export const CONTENT_MAX = 5000
export const URL_MAX = 2000
export const EXTRACTION_CODE_MAX = 16

export const SHARE_SORTS = ['created_at', 'price', 'visit_count', 'purchase_count'] as const
