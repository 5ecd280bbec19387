import { describe, expect, it } from 'vitest'
import { accountThrottleKey, codesEqual, hashCode, mayLogIn } from '../credentials/rules.ts'
import { addressOf, bindRefused, deliversCode, loginThrottleKey, targetOf } from './rules.ts'

describe('targetOf', () => {
  it('prefers the phone, lower-cases an email, and is null without either', () => {
    expect(targetOf({ email: 'A@B.io', phone: '13900000000' })).toEqual({ channel: 'sms', target: '13900000000' })
    expect(targetOf({ email: 'A@B.io' })).toEqual({ channel: 'email', target: 'a@b.io' })
    expect(targetOf({})).toBeNull()
    expect(targetOf({ email: '', phone: '' })).toBeNull()
  })
  it('addressOf looks the account up by the same field the code goes to', () => {
    expect(addressOf({ channel: 'sms', target: '13900000000' })).toEqual({ phone: '13900000000' })
    expect(addressOf({ channel: 'email', target: 'a@b.io' })).toEqual({ email: 'a@b.io' })
  })
})

describe('code hashes', () => {
  const h = (purpose: string, target: string, code: string, pepper = 'p') => hashCode(pepper, purpose, target, code)
  it('differ by purpose, target, code and pepper; the target case does not matter', () => {
    const base = h('register', 'a@b.io', '123456')
    expect(h('forgot', 'a@b.io', '123456')).not.toBe(base)
    expect(h('register', 'c@b.io', '123456')).not.toBe(base)
    expect(h('register', 'a@b.io', '123457')).not.toBe(base)
    expect(h('register', 'a@b.io', '123456', 'other')).not.toBe(base)
    expect(h('register', 'A@B.IO', '123456')).toBe(base)
  })
  it('codesEqual compares hex digests, and is false for different lengths', () => {
    const a = h('bind', 'x', '000000')
    expect(codesEqual(a, a)).toBe(true)
    expect(codesEqual(a, h('bind', 'x', '000001'))).toBe(false)
    expect(codesEqual(a, a.slice(2))).toBe(false)
  })
})

describe('mayLogIn', () => {
  it('only an active, unbanned account', () => {
    expect(mayLogIn({ isBanned: 0, status: 'active' })).toBe(true)
    expect(mayLogIn({ isBanned: 1, status: 'active' })).toBe(false)
    expect(mayLogIn({ isBanned: 0, status: 'disabled' })).toBe(false)
  })
})

describe('loginThrottleKey', () => {
  it('is the account whatever identifier was typed, so name, email and phone share one budget', () => {
    expect(loginThrottleKey('Alice', 7)).toBe(accountThrottleKey(7))
    expect(loginThrottleKey('alice@example.com', 7)).toBe(loginThrottleKey('13900000000', 7))
  })
  it('is the typed text, trimmed and lower-cased, when it names no account — never an account key', () => {
    expect(loginThrottleKey('  Ghost ', null)).toBe(loginThrottleKey('ghost', undefined))
    expect(loginThrottleKey('uid:7', null)).not.toBe(accountThrottleKey(7))
  })
})

describe('which code requests reveal or deliver', () => {
  it('a sign-up code only reaches an address without an account, a reset code only one with', () => {
    expect(deliversCode('register', false)).toBe(true)
    expect(deliversCode('register', true)).toBe(false)
    expect(deliversCode('forgot', true)).toBe(true)
    expect(deliversCode('forgot', false)).toBe(false)
    expect(deliversCode('bind', false)).toBe(true)
  })
  it('only a bind request (by a logged-in user) is refused for a registered address; sign-up and reset never are', () => {
    expect(bindRefused('bind', true)).toBe(true)
    expect(bindRefused('bind', false)).toBe(false)
    expect(bindRefused('register', true)).toBe(false)
    expect(bindRefused('forgot', true)).toBe(false)
  })
})
