// The e2e suite's API client: admin login, the code outbox, users made through the real sign-up calls.
// Names, emails, phones and passwords come from the factories the seed and the API tests use too. No
// Playwright test object here, so the global setup can use it as well.
import { strongPassword, uniqueEmail, uniqueName, uniquePhone } from '#server/db/factories.ts'
import { authApi } from '#contract/auth.ts'
import { fetchClient } from '#contract/client.ts'
import { type OutboxMessage, outboxApi } from '#contract/outbox.ts'
import { type User, usersApi } from '#contract/users.ts'
import { ADMIN, API_URL } from './env.ts'

export { strongPassword, uniqueEmail, uniqueName, uniquePhone }

export type TestUser = { user_name: string; password: string; email?: string; phone?: string }
type Purpose = 'register' | 'forgot' | 'bind'

// ---- API client --------------------------------------------------------------------------------
let adminToken: Promise<string> | null = null

/**
 * Talks to the API directly, as the given client address (TRUST_PROXY is on in the e2e server), through
 * the contract's typed client (decision 130): `call(endpoint, {token, query | body})` answers the
 * envelope, `ok(…)` its data or throws.
 */
export class Api {
  readonly call: ReturnType<typeof fetchClient>['call']
  readonly ok: ReturnType<typeof fetchClient>['ok']

  constructor(readonly clientIp: string) {
    ;({ call: this.call, ok: this.ok } = fetchClient(API_URL, () => ({ 'x-forwarded-for': clientIp })))
  }

  async login(username: string, password: string): Promise<string> {
    return (await this.ok(authApi.login, { body: { username, password } })).token
  }

  /**
   * Pays an order or a package as the sandbox checkout page's Pay button does (a form post, not an
   * endpoint of the contract but the sandbox gateway's page). Answers the HTTP status, 303 when the payment went through.
   */
  async payInSandbox(payUrl: string | undefined): Promise<number> {
    if (!payUrl) throw new Error('no payUrl: the order needed no payment')
    // The checkout page's form posts its hidden fields (the page's own query) back to the page's path.
    const checkout = new URL(payUrl)
    const form = new URLSearchParams(checkout.search)
    form.set('action', 'pay')
    const res = await fetch(new URL(checkout.pathname, API_URL), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': this.clientIp },
      body: form.toString(),
      redirect: 'manual',
    })
    return res.status
  }

  /** One admin token per worker (admin sessions are not revoked by any test). */
  adminToken(): Promise<string> {
    adminToken ??= this.login(ADMIN.username, ADMIN.password)
    return adminToken
  }

  async outbox(): Promise<OutboxMessage[]> {
    return (await this.ok(outboxApi.list, { token: await this.adminToken(), query: { pageSize: 100 } })).list
  }

  /** The newest code sent to an email or phone (optionally for one purpose), waiting a little for it. */
  async latestCode(target: string, purpose?: Purpose): Promise<string> {
    const to = target.includes('@') ? target.toLowerCase() : target
    const deadline = Date.now() + 10_000
    for (;;) {
      const found = (await this.outbox()).find((m) => m.to === to && (!purpose || m.purpose === purpose))
      if (found) return found.code
      if (Date.now() > deadline) throw new Error(`no ${purpose ?? ''} code for ${target} in the outbox`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  async userInfo(token: string): Promise<User> {
    return this.ok(usersApi.userInfo, { token })
  }

  /** A user as an admin sees it (by id), for checking what the UI stored. */
  async adminGetUser(id: number): Promise<User> {
    return this.ok(usersApi.getUserById, { token: await this.adminToken(), query: { id } })
  }

  /** Signs a new user up through the real calls: code → outbox → register. */
  async createUser(kind: 'email' | 'phone' = 'email', prefix = 'e2e'): Promise<TestUser & { id: number }> {
    const user_name = uniqueName(prefix)
    const password = strongPassword()
    if (kind === 'email') {
      const email = uniqueEmail(user_name)
      await this.ok(authApi.registerCode, { query: { email } })
      const verificationCode = await this.latestCode(email, 'register')
      await this.ok(authApi.registerEmail, { body: { user_name, password, verificationCode, email } })
      const id = (await this.userInfo(await this.login(user_name, password))).id
      return { id, user_name, password, email }
    }
    const phone = uniquePhone()
    await this.ok(authApi.phoneRegisterCode, { query: { phone } })
    const verificationCode = await this.latestCode(phone, 'register')
    await this.ok(authApi.registerPhone, { body: { user_name, password, verificationCode, phone } })
    const id = (await this.userInfo(await this.login(user_name, password))).id
    return { id, user_name, password, phone }
  }

  /**
   * A user whose email (or phone) has never been sent a code, so a code for it can be asked at once: the
   * one-code-a-minute limit per address (DESIGN §3; proven in the API's tests) does not apply yet. Signed
   * up by the other kind of address; an admin then gives it a fresh one of this kind.
   */
  async createUserWithUnusedAddress(kind: 'email' | 'phone', prefix = 'e2e'): Promise<TestUser & { id: number }> {
    const user = await this.createUser(kind === 'email' ? 'phone' : 'email', prefix)
    const address = kind === 'email' ? uniqueEmail(user.user_name) : uniquePhone()
    await this.ok(usersApi.adminUpdate, { token: await this.adminToken(), body: { id: user.id, [kind]: address } })
    return { ...user, [kind]: address }
  }
}
