import { describe, expect, it } from 'vitest'
import { bindCallbackAllowed, hashSecret, mayUnbind, newSecret } from './rules.ts'

describe('oauth rules', () => {
  it('an account without a password keeps its last identity', () => {
    expect(mayUnbind({ hasPassword: false, boundCount: 1 })).toBe(false)
    expect(mayUnbind({ hasPassword: false, boundCount: 2 })).toBe(true)
    expect(mayUnbind({ hasPassword: true, boundCount: 1 })).toBe(true)
  })

  it('a bind callback counts only for the account that started it', () => {
    expect(bindCallbackAllowed({ purpose: 'bind', userId: 7 }, 7)).toBe(true)
    expect(bindCallbackAllowed({ purpose: 'bind', userId: 7 }, 8)).toBe(false)
    expect(bindCallbackAllowed({ purpose: 'bind', userId: 7 }, undefined)).toBe(false)
    expect(bindCallbackAllowed({ purpose: 'bind', userId: null }, 7)).toBe(false)
    expect(bindCallbackAllowed({ purpose: 'login', userId: null }, undefined)).toBe(true)
  })

  it('secrets are random and stored only as their hash', () => {
    const a = newSecret()
    const b = newSecret()
    expect(a.value).not.toBe(b.value)
    expect(a.hash).toBe(hashSecret(a.value))
    expect(a.hash).not.toContain(a.value)
  })
})
