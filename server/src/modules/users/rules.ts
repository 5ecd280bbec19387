import type { z } from 'zod'
import type { adminUpdateUserSchema } from '#contract/users.ts'
import type { users } from '../../db/schema/index.ts'
import { conflict } from '../../errors.ts'

export type AdminUpdate = z.output<typeof adminUpdateUserSchema>
type UserRow = typeof users.$inferSelect
type Settable = Partial<Pick<UserRow, 'userName' | 'profile' | 'role' | 'isBanned' | 'status' | 'email' | 'phone' | 'alipayRealName' | 'alipayAccount'>>

/** The columns an admin's update really changes (fields absent or equal to the stored value are left out). */
export function adminChanges(before: UserRow, b: AdminUpdate): Settable {
  const set: Settable = {}
  const differs = <K extends keyof Settable>(key: K, value: Settable[K] | undefined) => {
    if (value !== undefined && value !== before[key]) set[key] = value as never
  }
  differs('userName', b.user_name)
  differs('profile', b.profile)
  differs('role', b.role)
  differs('isBanned', b.is_banned)
  differs('status', b.status)
  differs('email', b.email)
  differs('phone', b.phone)
  differs('alipayRealName', b.alipayRealName)
  differs('alipayAccount', b.alipayAccount)
  return set
}

type AuditEntry = { action: string; from?: string | null; to?: string | null; reason?: string | null }
const banState = (v: number) => (v === 1 ? 'banned' : 'active')
const FIELD_NAMES: Partial<Record<keyof Settable, string>> = {
  userName: 'user_name',
  profile: 'profile',
  email: 'email',
  phone: 'phone',
  alipayRealName: 'alipayRealName',
  alipayAccount: 'alipayAccount',
}

/**
 * The audit entries of a change (issue 9): ban / unban, role and status with their from → to, and one
 * `edit` naming the other fields changed (their values are not copied into the append-only trail).
 */
export function auditOfChanges(before: UserRow, set: Settable): AuditEntry[] {
  const out: AuditEntry[] = []
  if (set.isBanned !== undefined) out.push({ action: set.isBanned === 1 ? 'ban' : 'unban', from: banState(before.isBanned), to: banState(set.isBanned) })
  if (set.role !== undefined) out.push({ action: 'role', from: before.role, to: set.role })
  if (set.status !== undefined) out.push({ action: 'status', from: before.status, to: set.status })
  const edited = (Object.keys(FIELD_NAMES) as (keyof Settable)[]).filter((k) => k in set).map((k) => FIELD_NAMES[k])
  if (edited.length > 0) out.push({ action: 'edit', reason: edited.join(', ') })
  return out
}

/** An admin's change to an account (POST /api/users/admin/update), the fields that matter here. */
export type AdminChange = { role?: 'admin' | 'user'; is_banned?: number; status?: 'active' | 'disabled' }

/** An admin cannot ban, disable or demote themselves (they would lock themselves out). */
export const locksOutSelf = (actorId: number, targetId: number, c: AdminChange) =>
  actorId === targetId && (c.is_banned === 1 || (c.role !== undefined && c.role !== 'admin') || c.status === 'disabled')

/** Banning or disabling ends every session of the account. */
export const endsSessions = (c: AdminChange) => c.is_banned === 1 || c.status === 'disabled'

/** A ban or status change decides whether the account's shares are for sale. */
export const changesSaleability = (c: AdminChange) => c.is_banned !== undefined || c.status !== undefined

export type AccountField = 'userName' | 'email' | 'phone'
const FIELD: Record<AccountField, { field: string; msg: string }> = {
  userName: { field: 'user_name', msg: 'auth.userNameTaken' },
  email: { field: 'email', msg: 'auth.emailTaken' },
  phone: { field: 'phone', msg: 'auth.phoneTaken' },
}

/** 409 naming the form field another account already uses. */
export function takenConflict(f: AccountField) {
  const { field, msg } = FIELD[f]
  return conflict(msg, { fieldErrors: { [field]: [msg] } })
}

/** The field a unique index of the users table guards (a race the pre-check lost). */
export function fieldOfConstraint(constraint: string): AccountField {
  if (constraint === 'users_email_key') return 'email'
  if (constraint === 'users_phone_key') return 'phone'
  return 'userName'
}
