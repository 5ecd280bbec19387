// Requests as a browser sends them to the console, for its loader/action tests.
import type { AppLoadContext } from '@remix-run/node'
import { commitToken } from '#app/.server/auth.ts'
import type { Order } from '#contract/orders.ts'
import type { User } from '#contract/users.ts'
import type { Withdrawal } from '#contract/withdrawals.ts'

export const ORIGIN = 'http://console.test'

/** The `ps_session` cookie (name=value) of a session holding this API token. */
export async function sessionCookie(token: string): Promise<string> {
  return (await commitToken(new Request(`${ORIGIN}/`), token)).split(';')[0]!
}

/** What a loader or an action receives; `context` is the request's load context (one per HTTP request). */
export function args(request: Request, params: Record<string, string> = {}, context: AppLoadContext = {}) {
  return { request, params, context }
}

/** Express hands Remix the Host header of the browser's request; undici's Request does not add one. */
const HOST = new URL(ORIGIN).host

export function get(path: string, cookie?: string): Request {
  return new Request(ORIGIN + path, { headers: { host: HOST, ...(cookie ? { cookie } : {}) } })
}

/** A form post of this site's page (same Origin, urlencoded, as a browser without JavaScript sends it). */
export function post(path: string, fields: Record<string, string> | [string, string][], { cookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(ORIGIN + path, {
    method: 'POST',
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
    body: new URLSearchParams(fields).toString(),
  })
}

/** Runs a loader/action and answers what it threw or returned (Remix treats both as the response). */
export async function settle<T>(run: () => Promise<T> | T): Promise<unknown> {
  try {
    return await run()
  } catch (e) {
    return e
  }
}

/** The status and headers of a returned or thrown `Response` or `data()` value. */
export function statusOf(value: unknown): { status: number; headers: Headers; data?: unknown } {
  if (value instanceof Response) return { status: value.status, headers: value.headers }
  if (value && typeof value === 'object' && 'init' in value && 'data' in value) {
    const init = (value as { init: ResponseInit | null }).init
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data: (value as { data: unknown }).data }
  }
  throw new Error(`not a response: ${String(value)}`)
}

/** A SPEC §3 User as /api/users/userInfo answers it, with what a test cares about changed. */
export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    uid: 7,
    user_name: 'ada',
    email: 'ada@example.com',
    phone: null,
    role: 'user',
    status: 'active',
    profile: '',
    is_banned: 0,
    last_login_iP: null,
    last_login_time: null,
    terms_agreed_at: null,
    alipayRealName: null,
    alipayAccount: null,
    created_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  }
}

/** A SPEC §3 Order as the order lists answer it (a paid share order), with what a test cares about changed. */
export function orderFixture(overrides: Partial<Order> = {}): Order {
  return {
    id: 1,
    orderNo: 'PS20261123000000123456789012',
    alipayTradeNo: null,
    username: 'ada',
    seller_name: 'seller',
    paymentMethod: 'Alipay',
    unicode: 'AbCd2345',
    amount: 9.9,
    fee: 0.5,
    seller_income: 9.4,
    product_name: 'Notes',
    product_type: 'share',
    payment_status: 'Completed',
    created_at: '2026-11-23T01:00:00.000Z',
    paid_at: '2026-11-23T01:00:00.000Z',
    settle_at: '2026-11-24T01:00:00.000Z',
    settled: true,
    first_revealed_at: null,
    refund_state: null,
    ...overrides,
  }
}

/** A withdrawal as the withdrawal calls answer it (a Pending one of 10 yuan), with what a test cares about changed. */
export function withdrawalFixture(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: 1,
    username: 'ada',
    withdrawalAmount: 10,
    withdrawalServiceFee: 0.1,
    actualWithdrawalAmount: 9.9,
    alipayAccount: '13800138000',
    alipayRealName: '张三',
    status: 'Pending',
    application_time: '2026-11-23T01:00:00.000Z',
    processing_time: null,
    transaction_order: null,
    payout_method: null,
    failure_reason: null,
    payout_error: null,
    created_at: '2026-11-23T01:00:00.000Z',
    ...overrides,
  }
}
