import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, normalizeSettings, settingsFromForm } from './settings.ts'

describe('app settings', () => {
  it('defaults to SPEC §3 values', () => {
    expect(normalizeSettings(undefined)).toEqual(DEFAULT_SETTINGS)
    expect(DEFAULT_SETTINGS).toMatchObject({ theme: 'light', themeColor: '#165DFF', menuWidth: 220, tabBar: false, navbar: true, footer: true })
  })

  it('keeps valid values and drops invalid ones one by one', () => {
    const s = normalizeSettings({ theme: 'dark', themeColor: 'red', menuWidth: 9999, density: 'mini', tabBar: true, footer: 'nope', extra: 1 })
    expect(s).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', density: 'mini', tabBar: true })
    expect(normalizeSettings('garbage')).toEqual(DEFAULT_SETTINGS)
    expect(normalizeSettings({ themeColor: '#00b42a', menuWidth: '240' })).toMatchObject({ themeColor: '#00B42A', menuWidth: 240 })
  })

  it('reads an unchecked checkbox of the form as false, and leaves keys the form did not list', () => {
    const f = new FormData()
    f.append('present', 'footer')
    f.append('present', 'tabBar')
    f.append('tabBar', 'on')
    f.append('theme', 'dark')
    const s = settingsFromForm(f, { ...DEFAULT_SETTINGS, colorWeak: true })
    expect(s).toMatchObject({ footer: false, tabBar: true, theme: 'dark', colorWeak: true })
    f.append('themeColor', '#123456')
    expect(settingsFromForm(f, DEFAULT_SETTINGS).themeColor).toBe('#123456')
    f.append('themeColorPreset', '#00B42A')
    expect(settingsFromForm(f, DEFAULT_SETTINGS).themeColor).toBe('#00B42A')
  })
})
