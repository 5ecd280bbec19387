import { conflict } from '../../errors.ts'

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
