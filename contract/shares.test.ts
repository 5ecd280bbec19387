import { describe, expect, it } from 'vitest'
import { SHARE_ADMIN_MOVES, SHARE_STATUSES, adminMovesFrom, canAdminMove, publicShareSchema, ownShareSchema } from './shares.ts'

describe('DESIGN §3 share status machine (admin moves)', () => {
  it('offers approve/ban for review, take down/ban for approved, approve/ban after a take-down, nothing after a ban', () => {
    expect(adminMovesFrom('under_review')).toEqual(['approve', 'ban'])
    expect(adminMovesFrom('approved')).toEqual(['takeDown', 'ban'])
    expect(adminMovesFrom('reported_invalid')).toEqual(['approve', 'ban'])
    expect(adminMovesFrom('violation')).toEqual([])
  })

  it('allows exactly the offered moves, and keeping the status', () => {
    for (const from of SHARE_STATUSES) {
      const offered = new Set(adminMovesFrom(from).map((m) => SHARE_ADMIN_MOVES[m]))
      for (const to of SHARE_STATUSES) expect(canAdminMove(from, to), `${from} → ${to}`).toBe(from === to || offered.has(to))
    }
  })

  it('a banned share never comes back, a share under review is never taken down', () => {
    expect(canAdminMove('violation', 'approved')).toBe(false)
    expect(canAdminMove('under_review', 'reported_invalid')).toBe(false)
  })
})

describe('share response schemas', () => {
  const share = {
    id: 1,
    unicode: 'AbCd2345',
    title: 't',
    type: 'text',
    price: 9.9,
    user_name: 'seller',
    visit_count: 0,
    purchase_count: 0,
    status: 'approved',
    subscription_status: 'close',
    created_at: new Date(0).toISOString(),
    for_sale: true,
  }
  it('the public view needs no content; the own view does', () => {
    expect(publicShareSchema.safeParse(share).success).toBe(true)
    expect(ownShareSchema.safeParse(share).success).toBe(false)
    expect(ownShareSchema.safeParse({ ...share, content: 'c', extraction_code: null }).success).toBe(true)
  })
  it('strips what is not part of SPEC §3 Share (never leaks a stored column)', () => {
    expect(publicShareSchema.parse({ ...share, contentEnc: 'v1.x' })).not.toHaveProperty('contentEnc')
  })
})
