import { describe, expect, it } from 'vitest'
import { splitLinks } from './links.ts'

describe('splitLinks', () => {
  it('finds http(s) addresses and leaves the rest as text', () => {
    expect(splitLinks('see https://example.com/a?b=1, then http://x.org.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ', then ' },
      { kind: 'link', text: 'http://x.org', href: 'http://x.org' },
      { kind: 'text', text: '.' },
    ])
  })
  it('never makes a link of anything but http(s), and keeps markup as text', () => {
    expect(splitLinks('javascript:alert(1) <a href="x">y</a>')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <a href="x">y</a>' }])
    expect(splitLinks('')).toEqual([])
  })
})
