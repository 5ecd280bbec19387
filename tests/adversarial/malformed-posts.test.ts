// Issue 20, Low: "the console answers 500 to POST /login with an unknown intent (129 of 9,450 malformed
// requests)". Every page action of the console, posted the way a script posts: an intent it does not
// know, no fields, each of its own intents with fields of the wrong kind. The answer is the client's
// mistake (a 4xx, or the form again with its messages) — never a 500 — and an intent the route does not
// know changes nothing (no write reaches the API).
import fs from 'node:fs'
import path from 'node:path'
import type { ActionFunctionArgs } from '@remix-run/node'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { usersApi } from '#contract/users.ts'
import { args, post, sessionCookie, settle, statusOf, userFixture } from '../support/console.ts'

const stub = await vi.hoisted(async () => (await import('../support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  // An admin, so that every guard lets the post through to its action; every other call answers 404.
  stub.on(usersApi.userInfo, { data: userFixture({ role: 'admin', phone: '13800000000', terms_agreed_at: '2026-11-01T00:00:00.000Z' }) })
})

type ActionModule = { action: (a: ActionFunctionArgs) => unknown }
const modules = import.meta.glob<ActionModule>('../../app/routes/*/route.tsx', { eager: true })
const ACTIONS = Object.entries(modules)
  .filter(([, m]) => typeof m.action === 'function')
  .map(([file, m]) => {
    const dir = path.basename(path.dirname(file))
    const source = fs.readFileSync(path.resolve(import.meta.dirname, file), 'utf8')
    // The intents this route names (`intent === 'x'`, `value="x"` on its buttons): each is tried with junk.
    const intents = [...new Set([...source.matchAll(/intent(?:'\))?\s*[!=]==\s*'([\w-]+)'|name="intent"\s+value="([\w-]+)"/g)].map((m) => m[1] ?? m[2]!))]
    return { dir, url: urlOf(dir), action: m.action, intents }
  })

/** The URL of a flat route folder (`_app.system.user-manage_.$id` → `/system/user-manage/7`). */
function urlOf(dir: string): string {
  const parts = dir
    .split('.')
    .filter((p) => !p.startsWith('_') || p === '_app')
    .filter((p) => p !== '_app')
    .map((p) => p.replace(/_$/, ''))
    .map((p) => (p === '$id' ? '7' : p === '$unicode' ? 'AbCd2345' : p === '$orderNo' ? 'PS20261123000000123456789012' : p))
  return `/${parts.join('/')}`
}

const paramsOf = (dir: string) => ({ id: '7', unicode: 'AbCd2345', orderNo: 'PS20261123000000123456789012', '*': dir })

/** Fields of every form of the console, each with a value of the wrong kind. */
const JUNK: Record<string, string> = {
  id: 'NaN',
  user_id: '-1',
  chat_id: '1e400',
  share_id: '0x10',
  package_id: '',
  channel_id: 'Infinity',
  amount: '-0',
  price: '1e309',
  withdrawalAmount: 'abc',
  status: '???',
  pageNum: '-3',
  pageSize: '100000',
  content: '\u0000\u0001',
  title: 'x'.repeat(20_000),
  username: '',
  user_name: '\u202e',
  password: '',
  email_phone: '@',
  verificationCode: 'abcdef',
  paymentMethod: 'Bitcoin',
  locale: 'xx-YY',
  order_no: 'PS1',
  confirm: 'maybe',
  reason: '',
  type: 'nope',
  subscription_status: 'sideways',
  fee_rate: '-5',
  days: '1.5',
  name: ' ',
  email: 'not-an-email',
  phone: '+1',
  alipayAccount: '',
  alipayRealName: '',
  text: '',
  message: '',
  description: '',
  agree: 'yes',
  from: '',
  redirectTo: '',
}

/** The same fields filled in as a real form would be: an unknown intent must not reach what they would do. */
const PLAUSIBLE: Record<string, string> = {
  id: '7',
  user_id: '7',
  chat_id: '7',
  amount: '10',
  price: '9.9',
  withdrawalAmount: '10',
  username: 'ada',
  user_name: 'ada_2',
  password: 'Secret@123',
  confirmPassword: 'Secret@123',
  oldPassword: 'Secret@123',
  newPassword: 'Secret@1234',
  email_phone: 'ada@example.com',
  email: 'ada@example.com',
  phone: '13800000000',
  verificationCode: '123456',
  paymentMethod: 'Alipay',
  locale: 'en-US',
  order_no: 'PS20261123000000123456789012',
  confirm: 'true',
  reason: 'spam',
  title: 'A title',
  content: 'Some content',
  type: 'text',
  agree: 'on',
  status: 'approved',
}

const ids = ACTIONS.map((a) => a.dir)

describe('malformed posts to every page action', () => {
  it('covers every action of the console', () => {
    expect(ids.length).toBeGreaterThanOrEqual(35)
  })

  it.each(ACTIONS)('$dir: an intent it does not know is refused (4xx) and writes nothing', async ({ dir, url, action }) => {
    const cookie = await sessionCookie('admin-token')
    for (const fields of [{ intent: 'no-such-intent' }, { intent: 'no-such-intent', ...JUNK }, { ...PLAUSIBLE, intent: 'no-such-intent' }, { ...PLAUSIBLE, intent: 'constructor' }, { intent: '__proto__' }, { ...PLAUSIBLE, intent: '' }]) {
      stub.calls.length = 0
      const answer = await settle(() => action(args(post(url, fields, { cookie }), paramsOf(dir))))
      if (answer instanceof Error) throw new Error(`${dir}: threw ${answer.message}`)
      // 400 — or the 4xx of a guard that answered before the form was read (the chat of a share this
      // browser never bought is a 404).
      const { status } = statusOf(answer)
      expect(status >= 400 && status < 500, `${dir} ${fields.intent}: ${status}`).toBe(true)
      const writes = stub.calls.filter((c) => c.method === 'POST')
      expect(writes.map((c) => c.path), `${dir}: API writes for an unknown intent`).toEqual([])
    }
  })

  it.each(ACTIONS)('$dir: no fields, or each of its intents with fields of the wrong kind, is never a 500', async ({ dir, url, action, intents }) => {
    const cookie = await sessionCookie('admin-token')
    for (const fields of [{}, JUNK, PLAUSIBLE, ...intents.flatMap((intent) => [{ intent }, { ...JUNK, intent }, { ...PLAUSIBLE, intent }])]) {
      const answer = await settle(() => action(args(post(url, fields as Record<string, string>, { cookie }), paramsOf(dir))))
      if (answer instanceof Error) throw new Error(`${dir} ${JSON.stringify((fields as { intent?: string }).intent)}: threw ${answer.stack}`)
      expect(statusOf(answer).status, `${dir} ${JSON.stringify((fields as { intent?: string }).intent)}`).toBeLessThan(500)
    }
  })
})
