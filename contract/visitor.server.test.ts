import { describe, expect, it } from 'vitest'
import { signVisitorId, verifyVisitorId } from './visitor.server.ts'

const ID = 'visitor-aaaaaaaaaaaaaaaa'

describe('x-visitor-id signing', () => {
  it('verifies what it signed with the same secret', () => {
    expect(verifyVisitorId(signVisitorId(ID, 's1'), 's1')).toBe(ID)
  })

  it.each([
    ['no value', undefined],
    ['a bare id (what the console used to send)', ID],
    ['another secret', signVisitorId(ID, 's2')],
    ['a changed id with the old signature', signVisitorId(ID, 's1').replace(ID, 'visitor-bbbbbbbbbbbbbbbb')],
    ['a changed signature', `${signVisitorId(ID, 's1').slice(0, -2)}AA`],
    ['a cut signature', signVisitorId(ID, 's1').slice(0, -5)],
    ['an id outside the pattern', `short.${'A'.repeat(43)}`],
    ['a long value', `${ID}.${'A'.repeat(300)}`],
  ])('refuses %s', (_name, value) => {
    expect(verifyVisitorId(value, 's1')).toBeNull()
  })

  it('a value verified once (and remembered, decision 150) is still refused under another secret', () => {
    const value = signVisitorId('visitor-cccccccccccccccc', 's1')
    expect(verifyVisitorId(value, 's1')).toBe('visitor-cccccccccccccccc')
    expect(verifyVisitorId(value, 's2')).toBeNull()
    expect(verifyVisitorId(value, 's1')).toBe('visitor-cccccccccccccccc')
  })

  it('signs only well-formed ids', () => {
    expect(() => signVisitorId('x.y', 's1')).toThrow()
  })
})
