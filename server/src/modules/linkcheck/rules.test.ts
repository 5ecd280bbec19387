import { describe, expect, it } from 'vitest'
import { deadLinkMessage, firstCheckAt, hostOf, nextCheckAt, nextStreak, refundDueAt, salesMove, withinRefundWindow } from './rules.ts'

const HOUR = 3_600_000
const now = new Date('2026-11-27T12:00:00Z')

describe('strikes', () => {
  it('a dead result adds one, a passing one resets, an unclear one does neither', () => {
    expect(nextStreak(0, 'dead')).toBe(1)
    expect(nextStreak(1, 'dead')).toBe(2)
    expect(nextStreak(3, 'ok')).toBe(0)
    expect(nextStreak(1, 'unknown')).toBe(1)
  })
  it('stops the sales on the second strike only once, resumes them on a pass', () => {
    expect(salesMove(false, 1, 'dead')).toBeNull()
    expect(salesMove(false, 2, 'dead')).toBe('stop')
    expect(salesMove(true, 3, 'dead')).toBeNull()
    expect(salesMove(true, 0, 'ok')).toBe('resume')
    expect(salesMove(true, 2, 'unknown')).toBeNull()
    expect(salesMove(false, 0, 'ok')).toBeNull()
  })
})

describe('the schedule', () => {
  it('checks every link within the day, a selling one every 4–6 h, a failing one again within the hour', () => {
    for (const r of [0, 0.5, 0.999]) {
      const day = nextCheckAt(now, { sells: false, result: 'ok', stopped: false }, () => r).getTime() - now.getTime()
      expect(day).toBeGreaterThanOrEqual(22 * HOUR)
      expect(day).toBeLessThanOrEqual(24 * HOUR)
      const selling = nextCheckAt(now, { sells: true, result: 'ok', stopped: false }, () => r).getTime() - now.getTime()
      expect(selling).toBeGreaterThanOrEqual(4 * HOUR)
      expect(selling).toBeLessThanOrEqual(6 * HOUR)
      const failing = nextCheckAt(now, { sells: false, result: 'dead', stopped: false }, () => r).getTime() - now.getTime()
      expect(failing).toBeLessThanOrEqual(HOUR)
      // Stopped already: back to the day's rhythm (the seller's edit is checked at once anyway).
      expect(nextCheckAt(now, { sells: false, result: 'dead', stopped: true }, () => r).getTime() - now.getTime()).toBeGreaterThanOrEqual(22 * HOUR)
      expect(firstCheckAt(now, () => r).getTime() - now.getTime()).toBeLessThan(24 * HOUR)
    }
  })
})

describe('refunds', () => {
  it('are offered for orders paid within the window, due the fix window after the seller was told', () => {
    expect(withinRefundWindow(new Date(now.getTime() - 7 * 24 * HOUR), now, 7)).toBe(true)
    expect(withinRefundWindow(new Date(now.getTime() - 7 * 24 * HOUR - 1), now, 7)).toBe(false)
    expect(withinRefundWindow(null, now, 7)).toBe(false)
    expect(refundDueAt(now, 48).getTime() - now.getTime()).toBe(48 * HOUR)
  })
})

describe('hosts and the seller message', () => {
  it('reads the host of http(s) links only', () => {
    expect(hostOf(' https://Pan.Baidu.com/s/1abc ')).toBe('pan.baidu.com')
    expect(hostOf('ftp://x.example/y')).toBeNull()
    expect(hostOf('not a link')).toBeNull()
  })
  it('tells the seller in both languages where to fix the link', () => {
    const text = deadLinkMessage({ id: 42, unicode: 'AbCd2345', title: 'Notes' }, 'http_404', 48)
    expect(text).toContain('/share-manage/edit/42')
    expect(text).toContain('链接失效')
    expect(text).toContain('Dead link')
    expect(text).toContain('48')
    expect(deadLinkMessage({ id: 42, unicode: 'AbCd2345', title: 'Notes' }, null, 48, 'https://payshare.example')).toContain('https://payshare.example/share-manage/edit/42 ')
  })
})
