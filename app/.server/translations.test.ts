import { createInstance, type i18n } from 'i18next'
import { describe, expect, it, vi } from 'vitest'
import { resources } from '#app/i18n.ts'
import { recording } from './catalog-entries.ts'
import { rememberTranslations } from './translations.ts'

const catalog = {
  public: { buy: 'Buy', hello: 'Hello {{name}}', days_one: '{{count}} day', days_other: '{{count}} days', nested: 'Say $t(public.buy)' },
  auth: { tabs: { login: 'Log in' } },
}

async function instanceOf(lng: string, translation: object): Promise<i18n> {
  const instance = createInstance()
  await instance.init({ lng, resources: { [lng]: { translation } }, interpolation: { escapeValue: false } })
  rememberTranslations(instance)
  return instance
}

describe('rememberTranslations', () => {
  it('looks a key asked alone up once, and gives what i18next gives', async () => {
    const instance = await instanceOf('en-US', catalog)
    const translate = vi.spyOn(instance.translator, 'translate')
    const t = instance.getFixedT(null, 'translation')
    expect([t('public.buy'), t('public.buy'), instance.t('public.buy'), instance.t('public.buy')]).toEqual(['Buy', 'Buy', 'Buy', 'Buy'])
    expect(t('public.nope')).toBe('public.nope')
    expect(t('public.nope')).toBe('public.nope')
    // One lookup for getFixedT's t and one for the instance's own, per key.
    expect(translate.mock.calls.filter(([key]) => key === 'public.buy')).toHaveLength(2)
    expect(translate.mock.calls.filter(([key]) => key === 'public.nope')).toHaveLength(1)
    // A text that nests another is i18next's to assemble, once.
    expect([t('public.nested'), t('public.nested')]).toEqual(['Say Buy', 'Say Buy'])
    expect(translate.mock.calls.filter(([key]) => key === 'public.nested')).toHaveLength(1)
  })

  it('leaves every call with options or several keys to i18next, each time', async () => {
    const instance = await instanceOf('en-US', catalog)
    const translate = vi.spyOn(instance.translator, 'translate')
    const t = instance.getFixedT(null, 'translation')
    expect(t('public.days', { count: 1 })).toBe('1 day')
    expect(t('public.days', { count: 2 })).toBe('2 days')
    expect(t('public.hello', { name: 'A' })).toBe('Hello A')
    expect(t('public.hello', { name: 'B' })).toBe('Hello B')
    expect(t(['public.nope', 'public.buy'])).toBe('Buy')
    expect(t('public.nope', 'a default')).toBe('a default')
    expect(translate).toHaveBeenCalledTimes(6)
  })

  it('gives the same t for the same language, namespace and prefix, and keeps prefixes apart', async () => {
    const instance = await instanceOf('en-US', catalog)
    expect(instance.getFixedT(null, 'translation')).toBe(instance.getFixedT(null, 'translation'))
    const tabs = instance.getFixedT(null, 'translation', 'auth.tabs')
    expect(tabs).not.toBe(instance.getFixedT(null, 'translation'))
    expect(tabs('login')).toBe('Log in')
    expect(instance.getFixedT(null, 'translation')('login')).toBe('login')
  })

  it('keeps each locale its own texts (one instance per locale, as the server has)', async () => {
    const zh = await instanceOf('zh-CN', resources['zh-CN'].translation)
    const en = await instanceOf('en-US', resources['en-US'].translation)
    expect(zh.getFixedT(null, 'translation')('public.backHome')).toBe((resources['zh-CN'].translation.public as Record<string, string>).backHome)
    expect(en.getFixedT(null, 'translation')('public.backHome')).toBe((resources['en-US'].translation.public as Record<string, string>).backHome)
  })

  it('still lets each request note the keys it used (the browser catalogs, decision 100)', async () => {
    const instance = await instanceOf('en-US', catalog)
    const first = new Set<string>()
    const second = new Set<string>()
    expect(recording(instance, first).getFixedT(null, 'translation')('public.buy')).toBe('Buy')
    expect(recording(instance, second).getFixedT(null, 'translation', 'auth.tabs')('login')).toBe('Log in')
    expect(recording(instance, second).getFixedT(null, 'translation')('public.buy')).toBe('Buy')
    expect([...first]).toEqual(['public.buy'])
    expect([...second].sort()).toEqual(['auth.tabs.login', 'public.buy'])
  })
})
