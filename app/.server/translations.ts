import type { i18n } from 'i18next'

type T = ((...args: unknown[]) => unknown) & { lng?: unknown; lngs?: unknown; ns?: unknown; keyPrefix?: unknown }

/**
 * The server's locale instances never change language and their catalogs are static (entry.server), so a
 * translation asked by its key alone (`t('public.buy')`, most of a page's texts) is the same text every
 * time: it is looked up once and remembered (i18next's `translate` — options, key paths, fallbacks — was
 * ≈ 6% of a share page render; decision 166). A call with options (`{ count }`, values to interpolate, a
 * default) or several keys is i18next's, as before. `getFixedT` (what useTranslation calls on every
 * render) gives the same remembering `t` for the same language, namespace and prefix.
 */
export function rememberTranslations(instance: i18n): void {
  const remembering = (t: T): T => {
    const texts = new Map<string, string>()
    return Object.assign((...args: unknown[]) => {
      const key = args[0]
      if (args.length !== 1 || typeof key !== 'string') return t(...args)
      const known = texts.get(key)
      if (known !== undefined) return known
      const text = t(key)
      if (typeof text === 'string') texts.set(key, text)
      return text
    }, t)
  }
  const self = instance as unknown as { t: T; getFixedT: (lng?: unknown, ns?: unknown, keyPrefix?: unknown) => T }
  const getFixedT = self.getFixedT
  const fixed = new Map<string, T>()
  self.t = remembering(self.t)
  self.getFixedT = (lng, ns, keyPrefix) => {
    const plain = (v: unknown) => v === undefined || v === null || typeof v === 'string'
    if (!plain(lng) || !plain(ns) || !plain(keyPrefix)) return getFixedT(lng, ns, keyPrefix)
    // \u0000 cannot be part of a language code, a namespace or a key prefix.
    const id = `${lng ?? ''}\u0000${ns ?? ''}\u0000${keyPrefix ?? ''}`
    let t = fixed.get(id)
    if (!t) fixed.set(id, (t = remembering(getFixedT(lng, ns, keyPrefix))))
    return t
  }
}
