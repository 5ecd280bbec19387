import { describe, expect, it } from 'vitest'
import { claimable, fraudReason, runSince, windowStart } from './rules.ts'

const now = new Date('2026-11-23T12:00:00Z')
const at = (iso: string) => new Date(iso)

describe('fraud action rules', () => {
  it('the window is N whole days back from now', () => {
    expect(windowStart(now, 30)).toEqual(at('2026-10-24T12:00:00Z'))
    expect(windowStart(now, 1)).toEqual(at('2026-11-22T12:00:00Z'))
  })

  it('a seller is claimable with no run, a stopped or finished run, or a running one whose lease is over', () => {
    expect(claimable(null, now)).toBe(true)
    expect(claimable({ state: 'done', since: now, leaseUntil: null }, now)).toBe(true)
    expect(claimable({ state: 'interrupted', since: now, leaseUntil: null }, now)).toBe(true)
    expect(claimable({ state: 'running', since: now, leaseUntil: at('2026-11-23T12:00:30Z') }, now)).toBe(false)
    expect(claimable({ state: 'running', since: now, leaseUntil: at('2026-11-23T11:59:59Z') }, now)).toBe(true)
  })

  it('a resumed run keeps its first window; after a finished one a new window starts', () => {
    const first = at('2026-10-01T00:00:00Z')
    expect(runSince({ state: 'interrupted', since: first, leaseUntil: null }, now, 30)).toEqual(first)
    expect(runSince({ state: 'running', since: first, leaseUntil: null }, now, 30)).toEqual(first)
    expect(runSince({ state: 'done', since: first, leaseUntil: null }, now, 30)).toEqual(windowStart(now, 30))
    expect(runSince(null, now, 7)).toEqual(windowStart(now, 7))
  })

  it('names its run in the audit reason', () => {
    expect(fraudReason(12)).toBe('fraud action #12')
  })
})
