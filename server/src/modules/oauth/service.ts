import type { FastifyInstance } from 'fastify'
import { type CallbackAnswer, type OAuthProvider, type OAuthPurpose, callbackPath } from '#contract/oauth.ts'
import { uniqueViolation } from '../../db/errors.ts'
import { AppError, conflict, forbidden, notFound, unauthorized } from '../../errors.ts'
import { CodeRejected, type OAuthIdentity, ProviderUnavailable } from '../../providers/oauth/types.ts'
import { checkPassword, openSession } from '../auth/index.ts'
import { mayLogIn } from '../credentials/index.ts'
import * as users from '../users/index.ts'
import { presentBinding } from './presenter.ts'
import * as repo from './repository.ts'
import { STATE_TTL_MS, TICKET_TTL_MS, bindCallbackAllowed, hashSecret, mayUnbind, newSecret, stateMatches, stateOf } from './rules.ts'

type Deps = Pick<FastifyInstance, 'db' | 'config' | 'limits' | 'oauth' | 'clock'>
type Client = { ip: string; userAgent?: string }

const badRequest = (msg: string) => new AppError(400, msg)

function providerOf(deps: Deps, provider: OAuthProvider) {
  const p = deps.oauth.get(provider)
  if (!p) throw notFound('oauth.unavailable')
  return p
}

const redirectUri = (deps: Deps, provider: OAuthProvider, purpose: OAuthPurpose) => `${deps.config.oauth.callbackBaseUrl}${callbackPath(provider, purpose)}`

export function offered(deps: Deps) {
  return (['qq', 'wechat'] as const).flatMap((provider) => {
    const p = deps.oauth.get(provider)
    return p ? [{ provider, sandbox: p.kind === 'sandbox' }] : []
  })
}

/**
 * Starts a round trip: a fresh state (stored hashed, single use, 10 minutes) and the provider's consent
 * URL. The console keeps the state in a signed cookie of the browser that asked (decision 093).
 */
export async function authorize(deps: Deps, req: { provider: OAuthProvider; purpose: OAuthPurpose; userId?: number }) {
  const p = providerOf(deps, req.provider)
  if (req.purpose === 'bind' && !req.userId) throw unauthorized()
  const binding = newSecret().value
  const state = stateOf(binding)
  const now = deps.clock()
  await repo.insertAttempt(deps.db, {
    stateHash: hashSecret(state),
    provider: req.provider,
    purpose: req.purpose,
    userId: req.purpose === 'bind' ? req.userId! : null,
    expiresAt: new Date(now.getTime() + STATE_TTL_MS),
  })
  return { url: p.authorizationUrl({ state, redirectUri: redirectUri(deps, req.provider, req.purpose) }), state, binding }
}

async function identify(deps: Deps, provider: OAuthProvider, purpose: OAuthPurpose, code: string): Promise<OAuthIdentity> {
  try {
    return await providerOf(deps, provider).identify({ code, redirectUri: redirectUri(deps, provider, purpose) })
  } catch (e) {
    if (e instanceof CodeRejected) throw badRequest('oauth.codeRejected')
    if (e instanceof ProviderUnavailable) throw new AppError(502, 'oauth.providerFailed', { reason: e.message })
    throw e
  }
}

/**
 * The provider's code and state, back in the browser: the state must be the one the browser's binding
 * makes (a code and state copied from a URL, without the cookie, change nothing — the state stays
 * usable for its browser), then it is spent (a replay, a forged or an expired one is refused before any
 * provider call), then the code is exchanged for the identity.
 */
export async function callback(
  deps: Deps,
  req: { provider: OAuthProvider; code: string; state: string; binding: string; userId?: number } & Client,
): Promise<CallbackAnswer> {
  if (!stateMatches(req.state, req.binding)) throw badRequest('oauth.stateInvalid')
  const now = deps.clock()
  const attempt = await repo.spendState(deps.db, { stateHash: hashSecret(req.state), provider: req.provider, now })
  if (!attempt || !bindCallbackAllowed(attempt, req.userId)) throw badRequest('oauth.stateInvalid')
  const identity = await identify(deps, req.provider, attempt.purpose, req.code)

  if (attempt.purpose === 'bind') {
    await bind(deps, attempt.userId!, req.provider, identity)
    return { kind: 'bound', provider: req.provider }
  }
  const known = await repo.findIdentity(deps.db, req.provider, identity)
  if (known) {
    if (!mayLogIn(known.user)) throw forbidden('auth.banned')
    return { kind: 'login', token: await openSession(deps.db, known.user, { ...req, method: req.provider }) }
  }
  const ticket = newSecret()
  await repo.setTicket(deps.db, attempt.id, { ticketHash: ticket.hash, ...identity, expiresAt: new Date(now.getTime() + TICKET_TTL_MS) })
  return { kind: 'unknown', ticket: ticket.value, provider: req.provider, nickname: identity.nickname }
}

/** One identity, one account; one identity per provider per account. Binding the same again is a no-op. */
async function bind(deps: Deps, userId: number, provider: OAuthProvider, identity: OAuthIdentity) {
  const known = await repo.findIdentity(deps.db, provider, identity)
  if (known) {
    if (known.user.id === userId) return
    throw conflict('oauth.identityTaken')
  }
  try {
    await repo.insertIdentity(deps.db, { provider, ...identity, userId })
  } catch (e) {
    throw raced(e) ?? e
  }
}

/** The unique index that fired when two requests raced: the identity, or the account's provider slot. */
function raced(e: unknown) {
  const constraint = uniqueViolation(e)
  if (!constraint) return null
  if (constraint === 'oauth_identities_user_key') return conflict('oauth.providerAlreadyBound')
  if (constraint.startsWith('oauth_identities_')) return conflict('oauth.identityTaken')
  return null
}

const spentTicket = async (tx: Parameters<typeof repo.spendTicket>[0], deps: Deps, ticket: string) => {
  const attempt = await repo.spendTicket(tx, { ticketHash: hashSecret(ticket), now: deps.clock() })
  if (!attempt?.openid) throw badRequest('oauth.ticketInvalid')
  return { provider: attempt.provider, openid: attempt.openid, unionid: attempt.unionid, nickname: attempt.nickname ?? '' }
}

/** Unknown identity → an existing account: its password once (throttled like a login), then bound and logged in. */
export async function bindExisting(deps: Deps, req: { ticket: string; username: string; password: string } & Client) {
  const user = await checkPassword(deps, req)
  try {
    const token = await deps.db.transaction(async (tx) => {
      const identity = await spentTicket(tx, deps, req.ticket)
      await repo.insertIdentity(tx, { ...identity, userId: user.id })
      return openSession(tx, user, { ...req, method: identity.provider })
    })
    return { token }
  } catch (e) {
    throw raced(e) ?? e
  }
}

/**
 * Unknown identity → a new account with the chosen user name and no password (decision 094). The ticket
 * is spent in the same transaction, so a taken name leaves it usable for another try.
 */
export async function createAccount(deps: Deps, req: { ticket: string; user_name: string } & Client) {
  await users.refuseTaken(deps.db, { userName: req.user_name })
  try {
    const token = await deps.db.transaction(async (tx) => {
      const identity = await spentTicket(tx, deps, req.ticket)
      const user = await users.createAccount(tx, { userName: req.user_name, email: null, phone: null, passwordHash: null })
      await repo.insertIdentity(tx, { ...identity, userId: user.id })
      return openSession(tx, user, { ...req, method: identity.provider })
    })
    return { token }
  } catch (e) {
    throw raced(e) ?? users.takenByRace(e) ?? e
  }
}

export async function bindings(deps: Deps, user: { id: number; passwordHash: string | null }) {
  const rows = await repo.listIdentities(deps.db, user.id)
  return { list: rows.map(presentBinding), has_password: user.passwordHash !== null, available: offered(deps).map((o) => o.provider) }
}

/** Refused when the identity is the account's last way to log in (decision 094). */
export async function unbind(deps: Deps, userId: number, provider: OAuthProvider) {
  await deps.db.transaction(async (tx) => {
    const account = await repo.lockAccount(tx, userId)
    if (!account) throw notFound()
    const rows = await repo.listIdentities(tx, userId)
    if (!rows.some((r) => r.provider === provider)) throw notFound('oauth.notBound')
    if (!mayUnbind({ hasPassword: account.passwordHash !== null, boundCount: rows.length })) throw conflict('oauth.lastLogin')
    await repo.deleteIdentity(tx, userId, provider)
  })
}
