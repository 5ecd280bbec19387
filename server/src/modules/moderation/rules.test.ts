import { describe, expect, it } from 'vitest'
import { REPORT_ACTIONS } from '#contract/moderation.ts'
import { SHARE_STATUSES } from '#contract/shares.ts'
import { appealMove, canAppeal, handleMove, reportChange } from './rules.ts'

describe('reportChange', () => {
  it('recover brings a taken-down share back and leaves approved / under-review shares as they are', () => {
    expect(reportChange('reported_invalid', 'recover')).toEqual({ to: 'approved', takedown: false })
    expect(reportChange('approved', 'recover')).toEqual({ to: null, takedown: false })
    expect(reportChange('under_review', 'recover')).toEqual({ to: null, takedown: false })
  })
  it('a banned share cannot be recovered or taken down, only its reports closed as banned', () => {
    expect(reportChange('violation', 'recover')).toBeNull()
    expect(reportChange('violation', 'take_down')).toBeNull()
    expect(reportChange('violation', 'ban')).toEqual({ to: null, takedown: false })
  })
  it('take down counts a new take-down only from approved; a share under review is not taken down', () => {
    expect(reportChange('approved', 'take_down')).toEqual({ to: 'reported_invalid', takedown: true })
    expect(reportChange('reported_invalid', 'take_down')).toEqual({ to: null, takedown: false })
    expect(reportChange('under_review', 'take_down')).toBeNull()
  })
  it('ban is final from every other status', () => {
    for (const s of SHARE_STATUSES.filter((s) => s !== 'violation')) expect(reportChange(s, 'ban')).toEqual({ to: 'violation', takedown: false })
  })
})

describe('handleMove', () => {
  it('applies to an open report, repeats the same action, refuses another one', () => {
    for (const a of REPORT_ACTIONS) expect(handleMove({ status: 'processing', action: null }, a)).toBe('apply')
    expect(handleMove({ status: 'handled', action: 'ban' }, 'ban')).toBe('repeat')
    expect(handleMove({ status: 'handled', action: 'ban' }, 'recover')).toBe('conflict')
    expect(handleMove({ status: 'handled', action: 'take_down' }, 'ban')).toBe('conflict')
  })
})

describe('appealMove', () => {
  const down = { status: 'reported_invalid' as const, takedowns: 2 }
  it('approve recovers, ban bans, for a pending appeal of the current take-down', () => {
    expect(appealMove({ status: 'pending', takedownNo: 2 }, down, 'approve')).toEqual({ kind: 'apply', appeal: 'approved', share: 'approved' })
    expect(appealMove({ status: 'pending', takedownNo: 2 }, down, 'ban')).toEqual({ kind: 'apply', appeal: 'banned', share: 'violation' })
  })
  it('a decided appeal: the same decision is a repeat, another a conflict', () => {
    expect(appealMove({ status: 'approved', takedownNo: 2 }, { status: 'approved', takedowns: 2 }, 'approve')).toEqual({ kind: 'repeat' })
    expect(appealMove({ status: 'banned', takedownNo: 2 }, { status: 'violation', takedowns: 2 }, 'ban')).toEqual({ kind: 'repeat' })
    expect(appealMove({ status: 'approved', takedownNo: 2 }, { status: 'approved', takedowns: 2 }, 'ban')).toMatchObject({ kind: 'conflict', msg: 'moderation.appealHandled' })
  })
  it('refuses when the share moved on meanwhile: recovered, banned, or taken down again', () => {
    expect(appealMove({ status: 'pending', takedownNo: 2 }, { status: 'approved', takedowns: 2 }, 'approve')).toMatchObject({ kind: 'conflict', msg: 'moderation.appealStale' })
    expect(appealMove({ status: 'pending', takedownNo: 2 }, { status: 'violation', takedowns: 2 }, 'ban')).toMatchObject({ kind: 'conflict' })
    expect(appealMove({ status: 'pending', takedownNo: 1 }, down, 'approve')).toMatchObject({ kind: 'conflict', msg: 'moderation.appealStale' })
  })
})

describe('canAppeal', () => {
  it('only a taken-down share', () => {
    expect(SHARE_STATUSES.filter(canAppeal)).toEqual(['reported_invalid'])
  })
})
