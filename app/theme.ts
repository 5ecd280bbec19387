import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core'
import { CheckboxMark, RadioDot } from './components/layout/sized-icons.tsx'
import type { AppSettings, Density } from './settings.ts'

// SPEC §3/§9: primary colour #165DFF (the Arco blue scale around it).
const arcoblue: MantineColorsTuple = ['#E8F3FF', '#BEDAFF', '#94BFFF', '#6AA1FF', '#4080FF', '#165DFF', '#0E42D2', '#072CA6', '#031A79', '#000D4D']

/** Ten shades around a chosen colour (index 5 is the colour): mixed towards white above, black below. */
export function shadesOf(hex: string): MantineColorsTuple {
  const n = parseInt(hex.slice(1), 16)
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255]
  const mix = (to: number, w: number) => '#' + rgb.map((c) => Math.round(c + (to - c) * w).toString(16).padStart(2, '0')).join('')
  const light = [0.9, 0.72, 0.54, 0.36, 0.18].map((w) => mix(255, w))
  const dark = [0.2, 0.4, 0.55, 0.7].map((w) => mix(0, w))
  return [...light, hex, ...dark] as unknown as MantineColorsTuple
}

/** SPEC §9 table density: the spacing and type size of every list (a theme default, not a page prop). */
const DENSITY: Record<Density, { verticalSpacing: number | string; horizontalSpacing: string; fz: string }> = {
  mini: { verticalSpacing: 2, horizontalSpacing: 'xs', fz: 'xs' },
  small: { verticalSpacing: 4, horizontalSpacing: 'xs', fz: 'sm' },
  medium: { verticalSpacing: 'xs', horizontalSpacing: 'sm', fz: 'sm' },
  large: { verticalSpacing: 'md', horizontalSpacing: 'md', fz: 'md' },
}

const base = {
  primaryShade: 5,
  fontFamily: '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
  defaultRadius: 'sm',
} satisfies MantineThemeOverride

const cache = new Map<string, MantineThemeOverride>()

/**
 * The Mantine theme of a settings cookie: primary colour and table density. Cached per combination, so
 * the provider gets the same object on every request (its CSS variables are not recomputed for a new
 * theme each time) and React sees a stable theme on the client.
 */
export function themeFor(settings: Pick<AppSettings, 'themeColor' | 'density'>): MantineThemeOverride {
  const key = `${settings.themeColor}|${settings.density}`
  let theme = cache.get(key)
  if (!theme) {
    const primary = settings.themeColor.toUpperCase() === '#165DFF' ? arcoblue : shadesOf(settings.themeColor)
    theme = createTheme({
      ...base,
      primaryColor: 'arcoblue',
      colors: { arcoblue: primary },
      // The plain object `Table.extend()` would return: importing Table here would put the component (and
      // ScrollArea behind it) into every page's first load, /login's too (issue 11 JS budget).
      // Icons Mantine sizes in CSS only get a width and height attribute too (issue 23: 300 px wide where
      // no stylesheet applies): the select's chevron takes them as props, the radio's dot and the checkbox's tick are our own.
      components: {
        Table: { defaultProps: DENSITY[settings.density] },
        ComboboxChevron: { defaultProps: { width: 15, height: 15 } },
        // An input says what it is (html-validate's no-implicit-input-type; issue 23).
        TextInput: { defaultProps: { type: 'text' } },
        Radio: { defaultProps: { icon: RadioDot } },
        Checkbox: { defaultProps: { icon: CheckboxMark } },
      },
    })
    if (cache.size > 64) cache.clear()
    cache.set(key, theme)
  }
  return theme
}
