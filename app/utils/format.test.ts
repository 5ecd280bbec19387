import { describe, expect, it } from 'vitest'
import { formatDateTime } from './format.ts'

describe('formatDateTime', () => {
  it('shows Asia/Shanghai time whatever the process zone', () => {
    expect(formatDateTime('2026-11-20T16:30:05.000Z')).toBe('2026-11-21 00:30:05')
    expect(formatDateTime('2026-01-01T00:00:00Z', 'UTC')).toBe('2026-01-01 00:00:00')
  })
  it('shows a dash for no time or a bad one', () => {
    expect(formatDateTime(null)).toBe('—')
    expect(formatDateTime('not a date')).toBe('—')
  })
})
