import { describe, expect, it, vi } from 'vitest'
import { formatDateTime, linkParts, parseDateInput } from './format.ts'

describe('formatDateTime', () => {
  it('shows Asia/Shanghai time whatever the process zone', () => {
    expect(formatDateTime('2026-11-20T16:30:05.000Z')).toBe('2026-11-21 00:30:05')
    expect(formatDateTime('2026-01-01T00:00:00Z', 'UTC')).toBe('2026-01-01 00:00:00')
  })
  it('shows a dash for no time or a bad one', () => {
    expect(formatDateTime(null)).toBe('—')
    expect(formatDateTime('not a date')).toBe('—')
  })
  it('formats a time once per zone, and stays right past the times it keeps', () => {
    const parts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts')
    try {
      const iso = '2026-03-04T05:06:07.000Z'
      expect([formatDateTime(iso), formatDateTime(iso)]).toEqual(['2026-03-04 13:06:07', '2026-03-04 13:06:07'])
      expect([formatDateTime(iso, 'UTC'), formatDateTime(iso, 'UTC')]).toEqual(['2026-03-04 05:06:07', '2026-03-04 05:06:07'])
      expect(parts).toHaveBeenCalledTimes(2)
      for (let s = 0; s < 1500; s++) expect(formatDateTime(new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString(), 'UTC')).toBe(`2026-01-01 00:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`)
      expect(formatDateTime(iso)).toBe('2026-03-04 13:06:07')
    } finally {
      parts.mockRestore()
    }
  })
})

describe('linkParts', () => {
  it('splits a netdisk link from the extraction code typed after it', () => {
    expect(linkParts('https://pan.baidu.com/s/1abc 提取码: x7k9')).toEqual([
      { text: 'https://pan.baidu.com/s/1abc', href: 'https://pan.baidu.com/s/1abc' },
      { text: ' 提取码: x7k9' },
    ])
    expect(linkParts('https://pan.baidu.com/s/1abc，提取码：x7k9')).toEqual([
      { text: 'https://pan.baidu.com/s/1abc', href: 'https://pan.baidu.com/s/1abc' },
      { text: '，提取码：x7k9' },
    ])
  })
  it('keeps a plain link whole and text without links as text', () => {
    expect(linkParts('https://example.com/a?b=1#c')).toEqual([{ text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' }])
    expect(linkParts('password: vue3-2026')).toEqual([{ text: 'password: vue3-2026' }])
  })
  it('finds links inside text and leaves a closing full stop out', () => {
    expect(linkParts('课程笔记：https://example.com/notes 访问密码 vue3. See http://x.example/y.')).toEqual([
      { text: '课程笔记：' },
      { text: 'https://example.com/notes', href: 'https://example.com/notes' },
      { text: ' 访问密码 vue3. See ' },
      { text: 'http://x.example/y', href: 'http://x.example/y' },
      { text: '.' },
    ])
  })
})

describe('parseDateInput', () => {
  it('reads the console format and the usual ways of typing a date, as YYYY-MM-DD', () => {
    for (const [typed, date] of [
      ['2026-01-05', '2026-01-05'],
      [' 2026-1-5 ', '2026-01-05'],
      ['2026/1/5', '2026-01-05'],
      ['2026.01.05', '2026-01-05'],
      ['2026年1月5日', '2026-01-05'],
      ['20260105', '2026-01-05'],
      ['2024-02-29', '2024-02-29'],
    ]) {
      expect(parseDateInput(typed!), typed).toBe(date)
    }
  })

  it('refuses what is not a calendar date', () => {
    for (const typed of ['', 'yesterday', '2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '01/05/2026', '2026-1-5-1', '202601051']) {
      expect(parseDateInput(typed), typed).toBeNull()
    }
  })
})
