import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { LoginMethod } from '#contract/oauth.ts'
import type { Tx } from '../../db/client.ts'
import type { UserRow } from '../users/index.ts'
import { forbidden, invalid, tooMany, unauthorized } from '../../errors.ts'
import { blockedFor, spend } from '../../plugins/app/rate-limits.ts'
import type { CodeSender } from '../../providers/codes.ts'
import * as users from '../users/index.ts'
import {
  type CodePurpose,
  consumeCode,
  dummyPasswordHash,
  endAllSessions,
  endSession,
  hashPassword,
  issueCode,
  mayLogIn,
  startSession,
  verifyPassword,
} from '../credentials/index.ts'
import { presentCodeSent } from './presenter.ts'
import { addressOf, bindRefused, deliversCode, loginThrottleKey, targetOf } from './rules.ts'
import { describeUserAgent } from './user-agent.ts'

type Deps = Pick<FastifyInstance, 'db' | 'config' | 'limits' | 'providers'>

/**
 * Login by user name, email or phone (DESIGN §3). Failures count against the account they name (or,
 * for names of no account, the typed text) and against the client address; a locked account or an
 * address over its hard cap is told when to retry (docs/decisions/040-login-throttling.md).
 */
export async function logIn(deps: Deps, req: { username: string; password: string; ip: string; userAgent?: string }) {
  const user = await checkPassword(deps, req)
  return { token: await openSession(deps.db, user, { ip: req.ip, userAgent: req.userAgent, method: 'password' }) }
}

/**
 * The password check of a login (and of binding a QQ / WeChat identity to an existing account), with
 * its throttling: the account it names, or 401 / 403 / 429.
 */
export async function checkPassword(deps: Pick<Deps, 'db' | 'limits'>, req: { username: string; password: string; ip: string }) {
  const { db, limits } = deps
  const user = await users.findAccountByLogin(db, req.username)
  const accountKey = loginThrottleKey(req.username, user?.id)
  const wait = Math.max(await blockedFor(limits.loginIp, req.ip), await blockedFor(limits.loginAccount, accountKey))
  if (wait) throw tooMany('auth.loginLocked', wait)

  // An account created by QQ / WeChat has no password (decision 094): no password matches it.
  const valid = (await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), req.password)) && !!user?.passwordHash
  if (!user || !valid) {
    await spend(limits.loginIp, req.ip)
    await spend(limits.loginAccount, accountKey)
    throw unauthorized('auth.badCredentials')
  }
  if (!mayLogIn(user)) throw forbidden('auth.banned')
  await limits.loginAccount.delete(accountKey)
  return user
}

/**
 * A new session for an account that proved who it is, and its login record — one transaction (a
 * savepoint when the caller's transaction is passed).
 */
export async function openSession(db: Deps['db'] | Tx, user: UserRow, req: { ip: string; userAgent?: string; method: LoginMethod }) {
  const ua = describeUserAgent(req.userAgent)
  const now = new Date()
  return db.transaction(async (tx) => {
    const token = await startSession(tx, user.id, now)
    await users.recordLogin(tx, user, { browser: ua.browser, device: ua.device, ip: req.ip, at: now, method: req.method })
    return token
  })
}

/** Revokes the token sent; without one (or with junk) there is nothing to do. */
export async function logOut(deps: Deps, token: string | null) {
  if (token && token.length <= 200) await endSession(deps.db, token)
}

type Registration = { user_name: string; password: string; verificationCode: string; email?: string; phone?: string }

/**
 * Sign-up with the code sent to the email or phone. The user name is public, so a taken one is said
 * at once; whether the address has an account is said only to whoever holds a valid code for it.
 */
export async function register(deps: Deps, body: Registration, log: FastifyBaseLogger) {
  await users.refuseTaken(deps.db, { userName: body.user_name })
  const passwordHash = await hashPassword(body.password)
  const target = body.phone ?? body.email!.toLowerCase()
  let created = false
  try {
    created = await deps.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, deps.config.secrets.codePepper, { purpose: 'register', target, code: body.verificationCode }))) return false
      // Taken meanwhile (or asked for while taken: that code was never delivered): the throw rolls back
      // the code's consumption.
      await users.refuseTaken(tx, { userName: body.user_name, email: body.email, phone: body.phone })
      await users.createAccount(tx, { userName: body.user_name, email: body.email ?? null, phone: body.phone ?? null, passwordHash })
      return true
    })
  } catch (e) {
    // Two sign-ups racing: the unique index that fired names the field.
    throw users.takenByRace(e) ?? e
  }
  if (!created) throw invalid({ verificationCode: ['auth.codeInvalid'] })
  log.info({ user_name: body.user_name }, 'registered')
}

/** New password by a code sent to the account's email or phone; every old token is revoked. */
export async function resetPassword(deps: Deps, body: { email?: string; phone?: string; verificationCode: string; password: string }) {
  const t = targetOf(body)
  if (!t) throw invalid({ email: ['validation.emailOrPhone'] })
  // The account is the one the code was sent to (phone first, as targetOf decides), never another field.
  const user = await users.findAccountByAddress(deps.db, addressOf(t))
  const passwordHash = await hashPassword(body.password)
  const done = await deps.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, deps.config.secrets.codePepper, { purpose: 'forgot', target: t.target, code: body.verificationCode }))) return false
    if (!user) return false
    await users.setPasswordHash(tx, user.id, passwordHash)
    // DESIGN §3: tokens are revoked on password change.
    await endAllSessions(tx, user.id)
    return true
  })
  if (!done) throw invalid({ verificationCode: ['auth.codeInvalid'] })
}

/**
 * The code GETs of SPEC §7. Sign-up and reset codes answer the same whether or not the address has an
 * account: a code is issued and throttled alike, it is just not delivered where it could not be used
 * (docs/decisions/041-codes-do-not-reveal-accounts.md).
 */
export async function sendCode(deps: Deps, req: { purpose: CodePurpose; query: { email?: string; phone?: string }; ip: string; userId?: number }) {
  const t = targetOf(req.query)
  if (!t) throw invalid({ email: ['validation.emailOrPhone'] })
  const wait = await spend(deps.limits.codeIp, req.ip)
  if (wait) throw tooMany('errors.rateLimited', wait)
  const hasAccount = (await users.findAccountByAddress(deps.db, addressOf(t))) !== null
  if (bindRefused(req.purpose, hasAccount)) throw users.takenConflict(t.channel === 'sms' ? 'phone' : 'email')
  const provider = t.channel === 'sms' ? deps.providers.sms : deps.providers.mail
  const sender: CodeSender = deliversCode(req.purpose, hasAccount) ? provider : { kind: provider.kind, send: async () => {} }
  const r = await issueCode(deps.db, { pepper: deps.config.secrets.codePepper, sender }, { ...t, purpose: req.purpose, userId: req.userId, ip: req.ip })
  return presentCodeSent(r, provider)
}
