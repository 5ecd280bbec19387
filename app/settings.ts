/**
 * The console's app settings (SPEC §3 App settings, DESIGN §3 Settings) and table density (SPEC §9).
 * They live in the `ps_settings` cookie so the server renders them on the first paint; this module is
 * shared by the server (reading the cookie and the drawer's form) and the browser (applying a change at
 * once), so it stays small and dependency-free.
 */
export const DENSITIES = ['mini', 'small', 'medium', 'large'] as const
export type Density = (typeof DENSITIES)[number]

/** Colour presets of the drawer; any other #rrggbb comes from the colour input. */
export const THEME_COLORS = ['#165DFF', '#F53F3F', '#F77234', '#00B42A', '#14C9C9', '#722ED1', '#D91AD9'] as const

export type AppSettings = {
  theme: 'light' | 'dark'
  colorWeak: boolean
  navbar: boolean
  menu: boolean
  topMenu: boolean
  hideMenu: boolean
  menuCollapse: boolean
  footer: boolean
  themeColor: string
  menuWidth: number
  tabBar: boolean
  menuFromServer: boolean
  density: Density
}

/** SPEC §3 defaults; density "medium" is the spacing the lists had before it was a setting. */
export const DEFAULT_SETTINGS: AppSettings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: false,
  hideMenu: false,
  menuCollapse: false,
  footer: true,
  themeColor: '#165DFF',
  menuWidth: 220,
  tabBar: false,
  menuFromServer: false,
  density: 'medium',
}

export const BOOLEAN_SETTINGS = ['colorWeak', 'navbar', 'menu', 'topMenu', 'hideMenu', 'menuCollapse', 'footer', 'tabBar', 'menuFromServer'] as const
export const MENU_WIDTH = { min: 160, max: 400 } as const

const HEX = /^#[0-9a-f]{6}$/i
const flag = (v: unknown, fallback: boolean) => (v === true || v === 'true' || v === 'on' ? true : v === false || v === 'false' ? false : fallback)

/**
 * A settings object from anything (the cookie's JSON, a form): each known key that holds a valid value
 * is taken, everything else keeps its default — a stale or hand-edited cookie can never break a page.
 */
export function normalizeSettings(input: unknown): AppSettings {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>
  const s: AppSettings = { ...DEFAULT_SETTINGS }
  if (o.theme === 'dark' || o.theme === 'light') s.theme = o.theme
  for (const k of BOOLEAN_SETTINGS) s[k] = flag(o[k], DEFAULT_SETTINGS[k])
  if (typeof o.themeColor === 'string' && HEX.test(o.themeColor)) s.themeColor = o.themeColor.toUpperCase()
  const width = Number(o.menuWidth)
  if (Number.isInteger(width) && width >= MENU_WIDTH.min && width <= MENU_WIDTH.max) s.menuWidth = width
  if ((DENSITIES as readonly unknown[]).includes(o.density)) s.density = o.density as Density
  return s
}

/**
 * The menu width a form sent: whole pixels within MENU_WIDTH, with or without a trailing "px" (what a
 * number field with a unit suffix submits). Anything else — 'abc', 5000, 300.5 — is null.
 */
function parseMenuWidth(v: FormDataEntryValue | null): number | null {
  if (typeof v !== 'string') return null
  const m = /^\s*(\d{1,4})\s*(px)?\s*$/i.exec(v)
  const width = m ? Number(m[1]) : NaN
  return Number.isInteger(width) && width >= MENU_WIDTH.min && width <= MENU_WIDTH.max ? width : null
}

/** A submitted menu width that cannot be taken (an empty field or none at all is no change). */
export const menuWidthRefused = (form: FormData) => {
  const v = form.get('menuWidth')
  return typeof v === 'string' && v.trim() !== '' && parseMenuWidth(v) === null
}

/**
 * The drawer's form as settings. A checkbox that is not checked is not submitted, so every boolean the
 * form lists (hidden `present` inputs) and did not send is false.
 */
export function settingsFromForm(form: FormData, current: AppSettings): AppSettings {
  const o: Record<string, unknown> = { ...current }
  const present = new Set(form.getAll('present').map(String))
  for (const k of BOOLEAN_SETTINGS) if (present.has(k)) o[k] = form.get(k) === 'on' || form.get(k) === 'true'
  for (const k of ['theme', 'themeColor', 'density'] as const) {
    const v = form.get(k)
    if (typeof v === 'string' && v !== '') o[k] = v
  }
  // A width out of range or not a number changes nothing (the action refuses it with a message).
  const width = parseMenuWidth(form.get('menuWidth'))
  if (width !== null) o.menuWidth = width
  // A preset swatch is a submit button: the colour it carries wins over the colour input's.
  const preset = form.get('themeColorPreset')
  if (typeof preset === 'string' && preset) o.themeColor = preset
  return normalizeSettings(o)
}

/** What "Copy settings" copies (SPEC §2 settings page): the SPEC §3 names and values. */
export function settingsJson(s: AppSettings): string {
  return JSON.stringify(s, null, 2)
}
