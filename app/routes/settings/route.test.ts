import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createCookie } from '@remix-run/node'
import { menuApi } from '#contract/menu.ts'
import { args, post, sessionCookie, statusOf } from '../../../tests/support/console.ts'
import { action } from './route.tsx'

const stub = await vi.hoisted(async () => (await import('../../../tests/support/api-stub.ts')).startApiStub())
afterAll(() => stub.close())

const settingsCookie = createCookie('ps_settings')
const tabsCookie = createCookie('ps_tabs')
const cookieValue = async (res: { headers: Headers }, cookie: typeof settingsCookie) => cookie.parse(res.headers.get('set-cookie'))

describe('POST /settings', () => {
  let session = ''
  beforeEach(async () => {
    session = await sessionCookie('token-1')
  })

  it('without JavaScript: stores the form and goes back with Save Success', async () => {
    const res = statusOf(await action(args(post('/settings', { redirectTo: '/faq/docs', theme: 'dark', present: 'footer', density: 'mini' }, { cookie: session }))))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/faq/docs')
    expect(await cookieValue(res, settingsCookie)).toMatchObject({ theme: 'dark', footer: false, density: 'mini', navbar: true })
    expect(res.headers.get('set-cookie')).toMatch(/ps_toast=/)
  })

  it('with JavaScript (instant): data, no redirect; a bad value keeps its default', async () => {
    const res = statusOf(await action(args(post('/settings', { instant: '1', themeColor: 'javascript:alert(1)', menuWidth: '5' }, { cookie: session }))))
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ ok: true, menu: null })
    expect(await cookieValue(res, settingsCookie)).toMatchObject({ themeColor: '#165DFF', menuWidth: 220 })
  })

  it('turning the server menu on loads it and says whether that worked', async () => {
    stub.on(menuApi.menu, { data: [] })
    const ok = statusOf(await action(args(post('/settings', { instant: '1', present: 'menuFromServer', menuFromServer: 'on' }, { cookie: session }))))
    expect(ok.data).toEqual({ ok: true, menu: 'loaded' })
    stub.on(menuApi.menu, { code: 500, msg: 'errors.internal' })
    const failed = statusOf(await action(args(post('/settings', { instant: '1', present: 'menuFromServer', menuFromServer: 'on' }, { cookie: session }))))
    expect(failed.data).toEqual({ ok: true, menu: 'failed' })
  })

  it('closes a tab, or all the others; closing the page on screen goes to the tab before it', async () => {
    const tabs = await tabsCookie.serialize(['/dashboard/workplace', '/faq/docs', '/user/order-list?page=2'])
    const cookie = `${session}; ${tabs.split(';')[0]}`
    const closeOther = statusOf(await action(args(post('/settings', { intent: 'close-tab', path: '/faq/docs', redirectTo: '/user/order-list?page=2' }, { cookie }))))
    expect(closeOther.headers.get('location')).toBe('/user/order-list?page=2')
    expect(await cookieValue(closeOther, tabsCookie)).toEqual(['/dashboard/workplace', '/user/order-list?page=2'])
    const closeHere = statusOf(await action(args(post('/settings', { intent: 'close-tab', path: '/user/order-list?page=2', redirectTo: '/user/order-list?page=2' }, { cookie }))))
    expect(closeHere.headers.get('location')).toBe('/faq/docs')
    const others = statusOf(await action(args(post('/settings', { intent: 'close-others', path: '/faq/docs', redirectTo: '/faq/docs' }, { cookie }))))
    expect(await cookieValue(others, tabsCookie)).toEqual(['/faq/docs'])
  })
})
