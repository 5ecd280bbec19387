import { createInstance } from 'i18next'
import { describe, expect, it } from 'vitest'
import { resources } from '#app/i18n.ts'
import { catalogEntries, recording } from './catalog-entries.ts'

const catalog = {
  auth: { login: 'Log in', loginTitle: 'Login', tabs: { login: 'Log in', register: 'Sign up' } },
  income: { days_one: '{{count}} day', days_other: '{{count}} days', daysLeft: 'left' },
  common: { ok: 'OK' },
}

describe('catalogEntries', () => {
  it('keeps exactly the named entries, at their paths', () => {
    expect(catalogEntries(catalog, ['auth.login', 'common.ok'])).toEqual({ auth: { login: 'Log in' }, common: { ok: 'OK' } })
  })

  it('brings the plural and context forms of a key, not its look-alikes', () => {
    expect(catalogEntries(catalog, ['income.days'])).toEqual({ income: { days_one: '{{count}} day', days_other: '{{count}} days' } })
  })

  it('brings a whole subtree when a key names one, and skips keys the catalog lacks', () => {
    expect(catalogEntries(catalog, ['auth.tabs', 'auth.nope', 'nope.deeper.still', 'auth.login.deeper'])).toEqual({ auth: { tabs: { login: 'Log in', register: 'Sign up' } } })
  })

  it('reads the real catalogs', () => {
    const zh = resources['zh-CN'].translation
    expect(catalogEntries(zh, ['auth.login'])).toEqual({ auth: { login: (zh.auth as Record<string, string>).login } })
  })
})

describe('recording', () => {
  it('notes the keys of t() and of the t that getFixedT gives (what useTranslation uses), prefixes included', async () => {
    const instance = createInstance()
    await instance.init({ lng: 'en-US', resources: { 'en-US': { translation: catalog } } })
    const keys = new Set<string>()
    const seen = recording(instance, keys)
    expect(seen.t('common.ok')).toBe('OK')
    expect(seen.getFixedT('en-US')('auth.login')).toBe('Log in')
    expect(seen.getFixedT('en-US', null, 'auth.tabs')('register')).toBe('Sign up')
    expect(seen.getFixedT('en-US')(['nope.key', 'income.daysLeft'])).toBe('left')
    expect([...keys].sort()).toEqual(['auth.login', 'auth.tabs.register', 'common.ok', 'income.daysLeft', 'nope.key'])
    // The instance itself records nothing: other requests share it.
    instance.t('income.days', { count: 2 })
    expect(keys.size).toBe(5)
  })
})
