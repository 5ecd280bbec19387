// The e2e suite's API client: admin login, the code outbox, users made through the real sign-up calls.
// Names, emails, phones and passwords come from the factories the seed and the API tests use too. No
// Playwright test object here, so the global setup can use it as well.
import { strongPassword, uniqueEmail, uniqueName, uniquePhone } from '#server/db/factories.ts'
import { ADMIN, API_URL } from './env.ts'

export { strongPassword, uniqueEmail, uniqueName, uniquePhone }

export type TestUser = { user_name: string; password: string; email?: string; phone?: string }
type Envelope<T> = { code: number; msg: string; data: T }
export type OutboxItem = { id: number; channel: 'email' | 'sms'; to: string; code: string; purpose: 'register' | 'forgot' | 'bind'; created_at: string }
export type ApiUser = {
  id: number
  user_name: string
  email: string | null
  phone: string | null
  role: string
  profile: string
  terms_agreed_at: string | null
  alipayRealName: string | null
  alipayAccount: string | null
}

// ---- API client --------------------------------------------------------------------------------
let adminToken: Promise<string> | null = null

/** Talks to the API directly, as the given client address (TRUST_PROXY is on in the e2e server). */
export class Api {
  constructor(readonly clientIp: string) {}

  async call<T>(path: string, opts: { method?: 'GET' | 'POST'; token?: string; query?: Record<string, string>; body?: unknown } = {}) {
    const url = new URL(API_URL + path)
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v)
    const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': this.clientIp }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(url, {
      method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    })
    return (await res.json()) as Envelope<T>
  }

  async ok<T>(path: string, opts: Parameters<Api['call']>[1] = {}): Promise<T> {
    const r = await this.call<T>(path, opts)
    if (r.code !== 200 && r.code !== 201) throw new Error(`${opts.method ?? 'call'} ${path} → ${r.code} ${r.msg} ${JSON.stringify(r.data)}`)
    return r.data
  }

  async login(username: string, password: string): Promise<string> {
    return (await this.ok<{ token: string }>('/api/auth/login', { body: { username, password } })).token
  }

  /** One admin token per worker (admin sessions are not revoked by any test). */
  adminToken(): Promise<string> {
    adminToken ??= this.login(ADMIN.username, ADMIN.password)
    return adminToken
  }

  async outbox(): Promise<OutboxItem[]> {
    return (await this.ok<{ list: OutboxItem[] }>('/api/dev/outbox', { token: await this.adminToken(), query: { pageSize: '100' } })).list
  }

  /** The newest code sent to an email or phone (optionally for one purpose), waiting a little for it. */
  async latestCode(target: string, purpose?: OutboxItem['purpose']): Promise<string> {
    const to = target.includes('@') ? target.toLowerCase() : target
    const deadline = Date.now() + 10_000
    for (;;) {
      const found = (await this.outbox()).find((m) => m.to === to && (!purpose || m.purpose === purpose))
      if (found) return found.code
      if (Date.now() > deadline) throw new Error(`no ${purpose ?? ''} code for ${target} in the outbox`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  async userInfo(token: string): Promise<ApiUser> {
    return this.ok<ApiUser>('/api/users/userInfo', { token })
  }

  /** A user as an admin sees it (by id), for checking what the UI stored. */
  async adminGetUser(id: number): Promise<ApiUser> {
    return this.ok<ApiUser>('/api/users/admin/getUserById', { token: await this.adminToken(), query: { id: String(id) } })
  }

  /** Signs a new user up through the real calls: code → outbox → register. */
  async createUser(kind: 'email' | 'phone' = 'email', prefix = 'e2e'): Promise<TestUser & { id: number }> {
    const user_name = uniqueName(prefix)
    const password = strongPassword()
    if (kind === 'email') {
      const email = uniqueEmail(user_name)
      await this.ok('/api/auth/getRegisterVerificationCode', { query: { email } })
      const verificationCode = await this.latestCode(email, 'register')
      await this.ok('/api/auth/register/email', { body: { user_name, password, verificationCode, email } })
      const id = (await this.userInfo(await this.login(user_name, password))).id
      return { id, user_name, password, email }
    }
    const phone = uniquePhone()
    await this.ok('/api/auth/getPhoneRegisterVerificationCode', { query: { phone } })
    const verificationCode = await this.latestCode(phone, 'register')
    await this.ok('/api/auth/register/phone', { body: { user_name, password, verificationCode, phone } })
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
    await this.ok('/api/users/admin/update', { token: await this.adminToken(), body: { id: user.id, [kind]: address } })
    return { ...user, [kind]: address }
  }
}
