// Page titles ("{label} - {site name}", SPEC §2/§9) of the public pages in both languages, and the
// redirects of the guards that need no browser (SPEC §2): the loaders, called with the locale cookie a
// browser sends. The menu pages' titles are walked in a browser by tests/e2e/walk.spec.ts.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { chatApi } from '#contract/messages.ts'
import { usersApi } from '#contract/users.ts'
import { args, get, sessionCookie, settle, statusOf, userFixture } from '../../tests/support/console.ts'
import { loader as notFound } from '../routes/$/route.tsx'
import { loader as agreementIndex } from '../routes/agreement._index/route.tsx'
import { loader as exemption } from '../routes/agreement.exemptionagree/route.tsx'
import { loader as userAgreement } from '../routes/agreement.user-agreement/route.tsx'
import { loader as privacy } from '../routes/agreement.user-privacy/route.tsx'
import { loader as faqIndex } from '../routes/_app.faq._index/route.tsx'
import { loader as login } from '../routes/login/route.tsx'

const stub = await vi.hoisted(async () => (await import('../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())
beforeEach(() => {
  stub.reset()
  stub.on(usersApi.userInfo, { data: userFixture() })
})

/** The `ps_lng` cookie as the locale switch writes it (base64 of the JSON value). */
const lng = (value: 'zh-CN' | 'en-US') => `ps_lng=${encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64'))}`
type Loader = (a: ReturnType<typeof args>) => unknown
const titleOf = async (loader: Loader, path: string, cookie?: string) => {
  const value = await settle(async () => loader(args(get(path, cookie))))
  const data = value && typeof value === 'object' && 'data' in value ? (value as { data: unknown }).data : value
  return (data as { title?: string }).title
}

describe('page titles in both languages', () => {
  it.each([
    ['/login', login, '登录 - PayShare 付费分享', 'Login - PayShare'],
    ['/agreement/exemptionagree', exemption, '免责声明 - PayShare 付费分享', 'Disclaimer - PayShare'],
    ['/agreement/user-agreement', userAgreement, '用户协议 - PayShare 付费分享', 'User agreement - PayShare'],
    ['/agreement/user-privacy', privacy, '隐私政策 - PayShare 付费分享', 'Privacy policy - PayShare'],
  ] as const)('%s', async (path, loader, zh, en) => {
    expect(await titleOf(loader as Loader, path)).toBe(zh)
    expect(await titleOf(loader as Loader, path, lng('zh-CN'))).toBe(zh)
    expect(await titleOf(loader as Loader, path, lng('en-US'))).toBe(en)
  })

  it('an unknown path is a 404 with its title, in the visitor\'s language', async () => {
    for (const [cookie, title] of [
      [undefined, '页面不存在 - PayShare 付费分享'],
      [lng('en-US'), 'Page not found - PayShare'],
    ] as const) {
      const res = statusOf(await settle(async () => notFound(args(get('/no/such/page', cookie)))))
      expect(res.status).toBe(404)
      expect(res.data).toEqual({ title, layout: null })
    }
  })

  it('a logged-in user\'s 404 carries the layout (header, menu), so it is drawn inside it (issue 23)', async () => {
    stub.on(chatApi.unread, { data: { messages: 0, chats: 0, notifications: 0 } })
    const res = statusOf(await settle(async () => notFound(args(get('/no/such/page', `${await sessionCookie('tok')}; ${lng('en-US')}`)))))
    expect(res.status).toBe(404)
    const data = res.data as { title: string; layout: { user: { user_name: string }; menu: { path: string }[] } }
    expect(data.title).toBe('Page not found - PayShare')
    expect(data.layout.user.user_name).toBe(userFixture().user_name)
    expect(data.layout.menu.map((i) => i.path)).toContain('/dashboard')
  })
})

describe('redirects of SPEC §2', () => {
  it('/agreement goes to the disclaimer, /faq to its docs', async () => {
    expect(statusOf(await settle(() => agreementIndex())).headers.get('location')).toBe('/agreement/exemptionagree')
    expect(statusOf(await settle(() => faqIndex())).headers.get('location')).toBe('/faq/docs')
  })

  it('a logged-in user going to /login goes to the workplace, keeping the query (the redirect too)', async () => {
    const cookie = await sessionCookie('tok')
    for (const search of ['?tab=register&from=menu', '?redirect=%2Fuser%2Fsetting', '']) {
      const res = statusOf(await settle(async () => login(args(get(`/login${search}`, cookie)))))
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`/dashboard/workplace${search}`)
    }
  })
})
