import { describe, expect, it } from 'vitest'
import { formatDateTime, linkParts } from './format.ts'

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
