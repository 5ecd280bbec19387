import { describe, expect, it } from 'vitest'
import { AppError } from '../../errors.ts'
import { adminChanges, auditOfChanges, changesSaleability, endsSessions, fieldOfConstraint, locksOutSelf, takenConflict } from './rules.ts'

describe('admin changes', () => {
  it('an admin may not ban, disable or demote themselves, but may change others and harmless fields', () => {
    expect(locksOutSelf(1, 1, { is_banned: 1 })).toBe(true)
    expect(locksOutSelf(1, 1, { status: 'disabled' })).toBe(true)
    expect(locksOutSelf(1, 1, { role: 'user' })).toBe(true)
    expect(locksOutSelf(1, 1, { role: 'admin', is_banned: 0, status: 'active' })).toBe(false)
    expect(locksOutSelf(1, 1, {})).toBe(false)
    expect(locksOutSelf(1, 2, { is_banned: 1, role: 'user', status: 'disabled' })).toBe(false)
  })
  it('banning or disabling ends sessions; lifting them does not', () => {
    expect(endsSessions({ is_banned: 1 })).toBe(true)
    expect(endsSessions({ status: 'disabled' })).toBe(true)
    expect(endsSessions({ is_banned: 0, status: 'active', role: 'user' })).toBe(false)
  })
  it('any ban or status change touches what is for sale; a role change does not', () => {
    expect(changesSaleability({ is_banned: 0 })).toBe(true)
    expect(changesSaleability({ status: 'active' })).toBe(true)
    expect(changesSaleability({ role: 'admin' })).toBe(false)
  })
})

describe('taken fields', () => {
  it('a 409 naming the form field', () => {
    const e = takenConflict('userName')
    expect(e).toBeInstanceOf(AppError)
    expect(e).toMatchObject({ statusCode: 409, msg: 'auth.userNameTaken', data: { fieldErrors: { user_name: ['auth.userNameTaken'] } } })
    expect(takenConflict('phone')).toMatchObject({ msg: 'auth.phoneTaken', data: { fieldErrors: { phone: ['auth.phoneTaken'] } } })
  })
  it('maps the users unique indexes to their fields', () => {
    expect(fieldOfConstraint('users_email_key')).toBe('email')
    expect(fieldOfConstraint('users_phone_key')).toBe('phone')
    expect(fieldOfConstraint('users_user_name_key')).toBe('userName')
  })
})

describe('what an admin update changes, and what the audit trail keeps', () => {
  const before = {
    id: 7,
    userName: 'alice',
    email: 'a@x.test',
    phone: null,
    passwordHash: 'h',
    role: 'user',
    status: 'active',
    profile: '',
    isBanned: 0,
    lastLoginIp: null,
    lastLoginTime: null,
    termsAgreedAt: null,
    alipayRealName: null,
    alipayAccount: null,
    createdAt: new Date(0),
  } as const
  it('leaves out absent fields and values equal to the stored ones', () => {
    expect(adminChanges(before, { id: 7, user_name: 'alice', email: 'a@x.test', is_banned: 0, role: 'user' })).toEqual({})
    expect(adminChanges(before, { id: 7, email: null, phone: '13912345678', is_banned: 1 })).toEqual({ email: null, phone: '13912345678', isBanned: 1 })
  })
  it('records ban / unban, role and status with from → to, and one edit naming the other fields (not their values)', () => {
    expect(auditOfChanges(before, { isBanned: 1, role: 'admin', email: 'b@x.test', alipayAccount: 'b@x.test' })).toEqual([
      { action: 'ban', from: 'active', to: 'banned' },
      { action: 'role', from: 'user', to: 'admin' },
      { action: 'edit', reason: 'email, alipayAccount' },
    ])
    expect(auditOfChanges({ ...before, isBanned: 1 }, { isBanned: 0, status: 'disabled' })).toEqual([
      { action: 'unban', from: 'banned', to: 'active' },
      { action: 'status', from: 'active', to: 'disabled' },
    ])
    expect(auditOfChanges(before, {})).toEqual([])
  })
})
