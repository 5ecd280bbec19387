import { describe, expect, it } from 'vitest'
import { shanghaiDay } from '#contract/days.ts'
import { shareAccess, visitorKey } from './rules.ts'

describe('shanghaiDay', () => {
  it('turns at midnight Asia/Shanghai (16:00 UTC)', () => {
    expect(shanghaiDay(new Date('2026-03-01T15:59:59Z'))).toBe('2026-03-01')
    expect(shanghaiDay(new Date('2026-03-01T16:00:00Z'))).toBe('2026-03-02')
  })
})

describe('visitorKey', () => {
  it('is a short hash, the same for the same address, another for another', () => {
    const a = visitorKey({ visitorId: null, ip: '10.0.0.1' })
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(visitorKey({ visitorId: null, ip: '10.0.0.1' })).toBe(a)
    expect(visitorKey({ visitorId: null, ip: '10.0.0.2' })).not.toBe(a)
  })
  it('follows a verified visitor id across addresses', () => {
    const v = 'visitor-aaaaaaaaaaaaaaaa'
    expect(visitorKey({ visitorId: v, ip: '10.0.0.1' })).toBe(visitorKey({ visitorId: v, ip: '10.0.0.2' }))
    expect(visitorKey({ visitorId: v, ip: '10.0.0.1' })).not.toBe(visitorKey({ visitorId: null, ip: '10.0.0.1' }))
  })
})

describe('shareAccess', () => {
  const nobody = { isOwner: false, isAdmin: false, hasBought: false, deleted: false }
  it('shows the content to the owner, admins and buyers; the public view to others', () => {
    expect(shareAccess(nobody)).toBe('public')
    expect(shareAccess({ ...nobody, isOwner: true })).toBe('content')
    expect(shareAccess({ ...nobody, isAdmin: true })).toBe('content')
    expect(shareAccess({ ...nobody, hasBought: true })).toBe('content')
  })
  it('keeps a deleted share for those alone (issue 13: buyers keep what they paid for)', () => {
    expect(shareAccess({ ...nobody, deleted: true })).toBe('none')
    expect(shareAccess({ ...nobody, deleted: true, hasBought: true })).toBe('content')
    expect(shareAccess({ ...nobody, deleted: true, isOwner: true })).toBe('content')
    expect(shareAccess({ ...nobody, deleted: true, isAdmin: true })).toBe('content')
  })
})
