import type { Locale } from '#app/i18n.ts'

/**
 * The browser's catalogs (issue 11 JS budget, decision 100). Each `<locale>/<namespace>.json` is a chunk
 * of its own, fetched on demand, so a new catalog registered in app/i18n.ts for the server needs
 * nothing here. A page's first load fetches the namespaces its server render used (listed in the page:
 * `CatalogList`); the others follow right after hydration, and a navigation waits for them
 * (`CatalogGate`).
 */
const files: Record<Locale, Record<string, () => Promise<Record<string, unknown>>>> = {
  'zh-CN': import.meta.glob<Record<string, unknown>>('./zh-CN/*.json', { import: 'default' }),
  'en-US': import.meta.glob<Record<string, unknown>>('./en-US/*.json', { import: 'default' }),
}

/**
 * Every page needs these before it hydrates, whatever its server render used: the texts of buttons and
 * of errors that a toast captures as a string when shown. Field messages (validation) are drawn by
 * React and drawn again when the whole catalogs arrive, so they wait for those.
 */
export const ALWAYS = ['common', 'errors'] as const

const nameOf = (file: string) => file.slice(file.lastIndexOf('/') + 1, -'.json'.length)

export function namespacesOf(lng: Locale): string[] {
  return Object.keys(files[lng]).map(nameOf)
}

/** The namespaces asked for (unknown names are skipped), as one `{ namespace: catalog }` object. */
export async function loadCatalogs(lng: Locale, names: readonly string[]): Promise<Record<string, unknown>> {
  const wanted = new Set(names)
  const entries = await Promise.all(
    Object.entries(files[lng])
      .filter(([file]) => wanted.has(nameOf(file)))
      .map(async ([file, load]) => [nameOf(file), await load()] as const),
  )
  return Object.fromEntries(entries)
}
