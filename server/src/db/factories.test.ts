import { describe, expect, it } from 'vitest'
import { isEmail, isPhone, isStrongPassword, USER_NAME_MAX, USER_NAME_PATTERN } from '#contract/rules.ts'
import { newShareBody, buildShare, orderTimes, strongPassword, uniqueEmail, uniqueName, uniquePhone } from './factories.ts'

describe('factories', () => {
  it('make valid, distinct user names, none a substring of another (so a search by one finds only its rows)', () => {
    const names = Array.from({ length: 400 }, () => uniqueName('adm'))
    expect(new Set(names).size).toBe(names.length)
    for (const n of names) {
      expect(n).toMatch(USER_NAME_PATTERN)
      expect(n.length).toBeLessThanOrEqual(USER_NAME_MAX)
      expect(n).toBe(n.toLowerCase())
      expect(names.filter((other) => other.includes(n))).toEqual([n])
    }
  })

  it('make valid, distinct emails, phones and strong passwords', () => {
    const phones = Array.from({ length: 200 }, uniquePhone)
    expect(new Set(phones).size).toBe(phones.length)
    expect(phones.every(isPhone)).toBe(true)
    expect(isEmail(uniqueEmail())).toBe(true)
    expect(isStrongPassword(strongPassword())).toBe(true)
  })

  it('build a share and its API body in yuan', () => {
    const share = buildShare({ type: 'netdisk', priceFen: 990 })
    expect(newShareBody(share)).toEqual({
      title: share.title,
      type: 'netdisk',
      content: share.content,
      extraction_code: 'x7k2',
      price: 9.9,
      subscription_status: 'close',
    })
    expect(newShareBody(buildShare())).not.toHaveProperty('extraction_code')
  })

  it('name an order after its creation time in Asia/Shanghai', () => {
    // 2026-11-22 17:05:09 UTC is 2026-11-23 01:05:09 in Beijing.
    const t = orderTimes(new Date('2026-11-22T17:05:09.500Z'), 'Refund')
    expect(t.orderNo).toMatch(/^PS20261123010509\d{12}$/)
    expect(t.expiresAt.toISOString()).toBe('2026-11-22T17:35:09.500Z')
    expect(t.paidAt!.getTime()).toBeGreaterThan(t.createdAt.getTime())
    expect(t.refundedAt!.getTime()).toBeGreaterThan(t.paidAt!.getTime())
    expect(orderTimes(new Date(), 'Pending')).toMatchObject({ paidAt: null, refundedAt: null })
  })
})
