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
    const res = statusOf(await action(args(post('/settings', { instant: '1', themeColor: 'javascript:alert(1)' }, { cookie: session }))))
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ ok: true, menu: null })
    expect(await cookieValue(res, settingsCookie)).toMatchObject({ themeColor: '#165DFF' })
  })

  it('menu width: what the field submits is taken ("300 px" too), and a later save keeps it', async () => {
    const res = statusOf(await action(args(post('/settings', { instant: '1', menuWidth: '300 px' }, { cookie: session }))))
    expect(res.data).toEqual({ ok: true, menu: null })
    const stored = await cookieValue(res, settingsCookie)
    expect(stored).toMatchObject({ menuWidth: 300 })
    const cookie = `${session}; ${(await settingsCookie.serialize(stored)).split(';')[0]}`
    const later = statusOf(await action(args(post('/settings', { redirectTo: '/faq/docs', menuWidth: '300 px', theme: 'dark' }, { cookie }))))
    expect(await cookieValue(later, settingsCookie)).toMatchObject({ menuWidth: 300, theme: 'dark' })
  })

  it.each(['abc', '5000', '100', '300.5'])('menu width %s: refused with a clear message, nothing changed', async (menuWidth) => {
    const instant = statusOf(await action(args(post('/settings', { instant: '1', menuWidth, theme: 'dark' }, { cookie: session }))))
    expect(instant.status).toBe(400)
    expect(instant.data).toMatchObject({ ok: false, error: { key: 'shell.settings.menuWidthInvalid', values: { min: '160', max: '400' } } })
    expect(instant.headers.get('set-cookie') ?? '').not.toMatch(/ps_settings=/)
    const plain = statusOf(await action(args(post('/settings', { redirectTo: '/faq/docs?page=2', menuWidth, theme: 'dark' }, { cookie: session }))))
    expect(plain.status).toBe(302)
    expect(plain.headers.get('location')).toBe('/faq/docs?page=2&settings=')
    expect(plain.headers.get('set-cookie')).not.toMatch(/ps_settings=/)
    expect(plain.headers.get('set-cookie')).toMatch(/ps_toast=/)
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
