import { describe, expect, it } from 'vitest'
import { UNICODE_PATTERN } from '#contract/codes.ts'
import { newUnicode, statusAfterSellerEdit, touchesReviewedFields, typeChangeNeedsContent } from './rules.ts'

describe('newUnicode', () => {
  it('draws 8 characters of the look-alike-free alphabet', () => {
    const codes = Array.from({ length: 500 }, newUnicode)
    for (const c of codes) expect(c).toMatch(UNICODE_PATTERN)
    expect(new Set(codes).size).toBe(codes.length)
  })
})

describe('statusAfterSellerEdit', () => {
  it('sends a reviewed change back to review and keeps the status otherwise', () => {
    expect(statusAfterSellerEdit('approved', true)).toBe('under_review')
    expect(statusAfterSellerEdit('approved', false)).toBe('approved')
    expect(statusAfterSellerEdit('under_review', true)).toBe('under_review')
  })
  it('locks a banned share, and a taken-down one against reviewed changes (a price change still passes)', () => {
    expect(statusAfterSellerEdit('violation', false)).toBe('locked')
    expect(statusAfterSellerEdit('violation', true)).toBe('locked')
    expect(statusAfterSellerEdit('reported_invalid', true)).toBe('locked')
    expect(statusAfterSellerEdit('reported_invalid', false)).toBe('reported_invalid')
  })
})

describe('touchesReviewedFields', () => {
  const current = { title: 'T', type: 'netdisk' as const, content: 'https://pan.example.com/s/a', extraction_code: '' }
  it('ignores fields resent unchanged, and an empty code where there was none', () => {
    expect(touchesReviewedFields(current, {})).toBe(false)
    expect(touchesReviewedFields(current, { ...current })).toBe(false)
    expect(touchesReviewedFields(current, { extraction_code: '' })).toBe(false)
  })
  it.each([{ title: 'U' }, { type: 'url' as const }, { content: 'https://pan.example.com/s/b' }, { extraction_code: 'ab12' }])('counts a real change: %o', (edit) => {
    expect(touchesReviewedFields(current, edit)).toBe(true)
  })
})

describe('typeChangeNeedsContent', () => {
  it('asks for new content when a share becomes a link, not when it stays one or becomes text', () => {
    expect(typeChangeNeedsContent('text', { type: 'url' })).toBe(true)
    expect(typeChangeNeedsContent('text', { type: 'netdisk', content: 'https://x.example/y' })).toBe(false)
    expect(typeChangeNeedsContent('url', { type: 'url' })).toBe(false)
    expect(typeChangeNeedsContent('url', { type: 'text' })).toBe(false)
    expect(typeChangeNeedsContent('url', {})).toBe(false)
  })
})
