import type { Rollup } from 'vite'

type ManualChunkMeta = Rollup.ManualChunkMeta

/**
 * The browser build's chunks, grouped by what the pages people land on use (issue 24, decision 152).
 *
 * Rollup's default puts every module in a chunk shared by exactly the entries (route modules, lazy
 * imports) that use it: no page loads a byte it does not run, but with ~80 routes the workplace asked
 * for 47 scripts before it hydrated and `/login` for 33, most under 1 KB (one per Mantine component and
 * per small module of the console, each used by its own set of routes). Here a module used by more than
 * one entry goes to a chunk named after the landing pages that use it:
 *
 * - `vendor` / `base`: the packages / the console's own modules of the browser entry and the root route
 *   (every page with scripts loads them);
 * - `forms`: used by `/login` and by the console's layout or the workplace;
 * - `login`: used by `/login` and other pages, not by the console's layout or the workplace;
 * - `console`: used by the console's layout (every page behind login), `workplace`: by the workplace,
 *   not the layout; both used by no page outside the console;
 * - `login-shared`, `console-shared`: the same, used by a page outside the console as well (an
 *   agreement, the pay page), so that those pages load these and not the console's own chunks.
 *
 * A module only one entry uses stays with it (Rollup's default), and so does what no landing page uses.
 * `/login` and the workplace load nothing they do not run; another page may load a part of a group chunk
 * it does not run (decision 152 lists what each page loads). A module's users are read from the module
 * graph, so packages imported through an index are imported by file (`importsByFile`); stylesheets keep
 * their chunks (which page links which stylesheet does not change).
 */
export function landingChunks({
  root,
  entryClient,
  login,
  layout,
  workplace,
  isConsolePage,
}: Record<'root' | 'entryClient' | 'login' | 'layout' | 'workplace', string> & { isConsolePage: (file: string) => boolean }) {
  let groups: Map<string, string> | null = null
  return function manualChunks(id: string, meta: ManualChunkMeta): string | undefined {
    groups ??= groupModules(meta, { root: [root, entryClient], login: [login], layout: [layout], workplace: [workplace] }, isConsolePage)
    return groups.get(id)
  }
}

type Landing = 'root' | 'login' | 'layout' | 'workplace'
const isPackage = (id: string) => id.includes('/node_modules/') || id.startsWith('\0')
const isStylesheet = (id: string) => /\.(css|scss|sass|less)(\?|$)/.test(id)

function groupModules(
  { getModuleIds, getModuleInfo }: ManualChunkMeta,
  landings: Record<Landing, string[]>,
  isConsolePage: (file: string) => boolean,
): Map<string, string> {
  const ids = [...getModuleIds()]
  const resolved = (file: string) => ids.find((id) => id === file || id.split('?')[0] === file)
  // The server build has no browser entry: its chunks are left as they are.
  if (!resolved(landings.root[1])) return new Map()
  // Every entry of the build: the browser entry, the route modules, and each lazy import's module.
  const entries = ids.filter((id) => {
    const info = getModuleInfo(id)
    return info && (info.isEntry || info.dynamicImporters.length > 0)
  })
  const entrySet = new Set(entries)
  const usedBy = new Map<string, Set<string>>()
  for (const entry of entries) {
    const stack = [entry]
    const seen = new Set([entry])
    while (stack.length) {
      const id = stack.pop()!
      if (!usedBy.has(id)) usedBy.set(id, new Set())
      usedBy.get(id)!.add(entry)
      for (const dep of getModuleInfo(id)?.importedIds ?? []) {
        if (seen.has(dep)) continue
        seen.add(dep)
        stack.push(dep)
      }
    }
  }
  const landingOf = new Map<string, Landing>()
  for (const [landing, files] of Object.entries(landings) as [Landing, string[]][]) {
    for (const file of files) {
      const id = resolved(file)
      if (!id) throw new Error(`landingChunks: ${file} is not in the build`)
      landingOf.set(id, landing)
    }
  }
  // A page outside the console and the landing pages: a visitor's, an agreement.
  const isPublicPage = (entry: string) => getModuleInfo(entry)!.isEntry && !landingOf.has(entry) && !isConsolePage(entry.split('?')[0])
  const groups = new Map<string, string>()
  for (const [id, users] of usedBy) {
    if (users.size < 2 || isStylesheet(id) || entrySet.has(id)) continue
    const on = new Set([...users].map((u) => landingOf.get(u)).filter(Boolean))
    const shared = [...users].some(isPublicPage) ? '-shared' : ''
    let group: string | undefined
    if (on.has('root')) group = isPackage(id) ? 'vendor' : 'base'
    else if (on.has('login') && (on.has('layout') || on.has('workplace'))) group = 'forms'
    else if (on.has('login')) group = `login${shared}`
    else if (on.has('layout') || on.has('workplace')) group = shared ? 'console-shared' : on.has('layout') ? 'console' : 'workplace'
    if (group) groups.set(id, group)
  }
  return groups
}
