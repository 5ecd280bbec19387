import type { FastifyInstance } from 'fastify'
import type { Database, Tx } from '../../db/client.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { conflict, invalid, notFound, tooMany } from '../../errors.ts'
import { blockedFor, spend } from '../../plugins/app/rate-limits.ts'
import { accountThrottleKey, consumeCode, endAllSessions, hashPassword, startSession, verifyPassword } from '../credentials/index.ts'
import { pageOf, presentAlipay, presentLoginRecord, presentUser } from './presenter.ts'
import * as repo from './repository.ts'
import type { UserRow } from './repository.ts'
import { recordAudit } from '../audit/index.ts'
import { type AdminUpdate, adminChanges, auditOfChanges, changesSaleability, endsSessions, fieldOfConstraint, locksOutSelf, takenConflict } from './rules.ts'

export { takenConflict } from './rules.ts'

type Db = Database | Tx
type Deps = Pick<FastifyInstance, 'db' | 'config' | 'limits' | 'shareCache'>
type Page = { pageNum: number; pageSize: number }

// ---- accounts, as the auth module uses them ----

export const findAccountByLogin = (db: Db, login: string) => repo.findUserByLogin(db, login)
export const findAccountByAddress = (db: Db, address: { email?: string; phone?: string }) => repo.findUserByEmailOrPhone(db, address)

/** 409 when another account has the user name / email / phone (the first of them, in that order). */
export async function refuseTaken(db: Db, f: { userName?: string; email?: string | null; phone?: string | null }, exceptId?: number) {
  const taken = await repo.takenFields(db, f, exceptId)
  if (taken.userName) throw takenConflict('userName')
  if (taken.email) throw takenConflict('email')
  if (taken.phone) throw takenConflict('phone')
}

/** The 409 for a unique index that fired (two writers racing for one name or address), else null. */
export function takenByRace(e: unknown) {
  const constraint = uniqueViolation(e)
  return constraint ? takenConflict(fieldOfConstraint(constraint)) : null
}

export const createAccount = (db: Db, row: { userName: string; email: string | null; phone: string | null; passwordHash: string | null }) => repo.insertUser(db, row)
export const setPasswordHash = (db: Db, userId: number, passwordHash: string) => repo.updateUser(db, userId, { passwordHash })
export const recordLogin = (db: Db, user: UserRow, login: Parameters<typeof repo.recordLogin>[2]) => repo.recordLogin(db, user, login)

// ---- the caller's own account ----

export async function updateProfile(deps: Deps, userId: number, body: { user_name: string; profile: string }) {
  await refuseTaken(deps.db, { userName: body.user_name }, userId)
  try {
    return presentUser((await repo.updateUser(deps.db, userId, { userName: body.user_name, profile: body.profile }))!)
  } catch (e) {
    if (uniqueViolation(e)) throw takenConflict('userName')
    throw e
  }
}

/** Revokes every token of the account and answers a fresh one, so the current session continues. */
export async function changePassword(deps: Deps, user: UserRow, body: { oldPassword: string; newPassword: string }) {
  // Wrong current passwords count like failed logins, so a stolen session cannot guess the password.
  const key = accountThrottleKey(user.id)
  const wait = await blockedFor(deps.limits.loginAccount, key)
  if (wait) throw tooMany('auth.loginLocked', wait)
  // An account created by QQ / WeChat has no password to change (decision 094): any old one is wrong.
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, body.oldPassword))) {
    await spend(deps.limits.loginAccount, key)
    throw invalid({ oldPassword: ['auth.oldPasswordWrong'] })
  }
  await deps.limits.loginAccount.delete(key)
  const passwordHash = await hashPassword(body.newPassword)
  const token = await deps.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { passwordHash })
    await endAllSessions(tx, user.id)
    return startSession(tx, user.id)
  })
  return { token }
}

/** Binds an email or the security phone with the bind code sent to it. */
export async function bindAddress(deps: Deps, userId: number, field: 'email' | 'phone', value: string, code: string) {
  await refuseTaken(deps.db, { [field]: value }, userId)
  let row: UserRow | null = null
  try {
    const ok = await deps.db.transaction(async (tx) => {
      const target = field === 'email' ? value.toLowerCase() : value
      if (!(await consumeCode(tx, deps.config.secrets.codePepper, { purpose: 'bind', target, code, userId }))) return false
      row = await repo.updateUser(tx, userId, { [field]: value })
      return true
    })
    if (!ok) throw invalid({ verificationCode: ['auth.codeInvalid'] })
  } catch (e) {
    if (uniqueViolation(e)) throw takenConflict(field)
    throw e
  }
  return presentUser(row!)
}

export const me = (user: UserRow) => presentUser(user)
export const alipayInfo = (user: UserRow) => presentAlipay(user)

export async function updateAlipay(deps: Deps, userId: number, body: { alipayRealName: string; alipayAccount: string }) {
  return presentAlipay((await repo.updateUser(deps.db, userId, { alipayRealName: body.alipayRealName, alipayAccount: body.alipayAccount }))!)
}

export const agreeToTerms = async (deps: Deps, userId: number) => presentUser(await repo.markTermsAgreed(deps.db, userId))

export async function ownLoginRecords(deps: Deps, userId: number, q: Page & { keyword?: string }) {
  const { rows, total } = await repo.listLoginRecords(deps.db, q, userId)
  return pageOf(rows, presentLoginRecord, total, q)
}

// ---- admin ----

export async function listUsers(deps: Deps, q: Parameters<typeof repo.listUsers>[1]) {
  const { rows, total } = await repo.listUsers(deps.db, q)
  return pageOf(rows, presentUser, total, q)
}

export async function getUser(deps: Deps, id: number) {
  const user = await repo.findUserById(deps.db, id)
  if (!user) throw notFound()
  return presentUser(user)
}

/**
 * An admin's change to an account (SPEC §3 User fields), in one transaction on the locked row: banning
 * or disabling revokes the account's tokens, and each change is kept in the user's audit trail (issue 9)
 * — ban / unban, role, status, and an `edit` naming the other fields changed. A repeat that changes
 * nothing records nothing.
 */
export async function adminUpdate(deps: Deps, actorId: number, body: AdminUpdate) {
  const { id } = body
  if (!(await repo.findUserById(deps.db, id))) throw notFound()
  if (locksOutSelf(actorId, id, body)) throw conflict('users.cannotDemoteSelf')
  await refuseTaken(deps.db, { userName: body.user_name, email: body.email, phone: body.phone }, id)
  let row: UserRow
  try {
    row = await deps.db.transaction(async (tx) => {
      const before = (await repo.lockUser(tx, id))!
      const set = adminChanges(before, body)
      // A repeated ban still ends any session (harmless when there is none).
      if (endsSessions(body)) await endAllSessions(tx, id)
      if (Object.keys(set).length === 0) return before
      const updated = (await repo.updateUser(tx, id, set))!
      for (const e of auditOfChanges(before, set)) await recordAudit(tx, { subject: 'user', subjectId: id, actorId, ...e })
      return updated
    })
  } catch (e) {
    const raced = takenByRace(e)
    if (raced) throw raced
    throw e
  }
  if (changesSaleability(body)) deps.shareCache.invalidate()
  return presentUser(row)
}

export async function allLoginRecords(deps: Deps, q: Parameters<typeof repo.listLoginRecords>[1] & { uid?: number }) {
  const { rows, total } = await repo.listLoginRecords(deps.db, q, q.uid)
  return pageOf(rows, presentLoginRecord, total, q)
}
