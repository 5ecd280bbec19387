import type { i18n } from 'i18next'

type Tree = Record<string, unknown>
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null

/**
 * The entries of a catalog that the keys name (decision 100): `auth.login` → `{ auth: { login: … } }`,
 * with the forms i18next may pick for a key — plurals and contexts (`items_one`, `items_other`,
 * `title_male`) — and whole subtrees when a key names one (`returnObjects`). Keys the catalog lacks are
 * skipped: i18next shows them as keys whatever is sent.
 */
export function catalogEntries(catalog: Tree, keys: Iterable<string>): Tree {
  const out: Tree = {}
  for (const key of keys) {
    const path = key.split('.')
    const last = path.pop()!
    let from: unknown = catalog
    let to: Tree = out
    for (const part of path) {
      from = isTree(from) ? from[part] : undefined
      if (!isTree(from)) break
      to = (isTree(to[part]) ? to[part] : (to[part] = {})) as Tree
    }
    if (!isTree(from)) continue
    for (const [name, value] of Object.entries(from)) if (name === last || name.startsWith(`${last}_`)) to[name] = value
  }
  return out
}

/**
 * The locale's shared instance, seen through a per-request proxy that notes the key of every `t()` of
 * the render, for the browser's first catalogs (`CatalogList`, decision 100). i18next binds its methods
 * to the instance, so the `t` that `getFixedT` (what useTranslation uses) returns is wrapped as well as
 * `t` itself.
 */
export function recording(instance: i18n, used: Set<string>): i18n {
  type T = ((...args: unknown[]) => unknown) & { keyPrefix?: string }
  const note = (key: unknown, prefix?: string) => {
    if (typeof key === 'string') used.add(prefix ? `${prefix}.${key}` : key)
    else if (Array.isArray(key)) for (const k of key) note(k, prefix)
  }
  const noting = (t: T): T => Object.assign((...args: unknown[]) => (note(args[0], t.keyPrefix), t(...args)), t)
  const t = noting(instance.t as unknown as T)
  // One wrapper per `t` the instance gives (it gives the same one for the same arguments: rememberTranslations).
  const wrapped = new Map<T, T>()
  const getFixedT = (...args: Parameters<i18n['getFixedT']>) => {
    const fixed = instance.getFixedT(...args) as unknown as T
    let w = wrapped.get(fixed)
    if (!w) wrapped.set(fixed, (w = noting(fixed)))
    return w
  }
  return new Proxy(instance, {
    get: (target, prop, receiver) => (prop === 't' ? t : prop === 'getFixedT' ? getFixedT : Reflect.get(target, prop, receiver)),
  })
}
