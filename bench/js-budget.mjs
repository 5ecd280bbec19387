// Issue 11 JS budget: the console JavaScript a first visit of a page downloads, in gzip bytes, read from
// the built Remix manifest (build/client): the manifest script, the client entry and, for each route the
// URL matches (root → layout → page), its module and the chunks it imports statically, plus the catalog
// chunk of the default locale (zh-CN), which the entry imports before hydrating. Other chunks behind a
// dynamic import() (charts, the settings drawer, the other locale) are not part of the first load.
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

/** The pages of the budget and the Remix route ids each one matches. */
const PAGES = {
  '/login': ['root', 'routes/login'],
  '/dashboard/workplace': ['root', 'routes/_app', 'routes/_app.dashboard.workplace'],
}
const BUDGET_KB = 170

export function jsBudget(root = process.cwd()) {
  const assets = path.join(root, 'build/client/assets')
  const manifestFile = fs.readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f))
  if (!manifestFile) throw new Error('no build/client/assets/manifest-*.js: run `npm run build` first')
  const source = fs.readFileSync(path.join(assets, manifestFile), 'utf8')
  const manifest = JSON.parse(source.slice(source.indexOf('=') + 1).replace(/;\s*$/, ''))
  const gz = new Map()
  const size = (url) => {
    if (!gz.has(url)) gz.set(url, gzipSync(fs.readFileSync(path.join(root, 'build/client', url))).length)
    return gz.get(url)
  }
  const result = {}
  for (const [page, ids] of Object.entries(PAGES)) {
    const catalogs = fs.readdirSync(assets).find((f) => /^zh-CN-.*\.js$/.test(f))
    if (!catalogs) throw new Error('no zh-CN catalog chunk in build/client/assets')
    const files = new Set([`/assets/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports, `/assets/${catalogs}`])
    for (const id of ids) {
      const route = manifest.routes[id]
      if (!route) throw new Error(`route ${id} is not in the manifest`)
      files.add(route.module)
      for (const i of route.imports ?? []) files.add(i)
    }
    const bytes = [...files].reduce((sum, f) => sum + size(f), 0)
    const biggest = [...files].sort((a, b) => size(b) - size(a)).slice(0, 4).map((f) => `${path.basename(f)} ${(size(f) / 1024).toFixed(1)}`)
    result[page] = { kb: bytes / 1024, files: files.size, biggest }
  }
  return { budgetKb: BUDGET_KB, pages: result }
}

/** Lines for `npm run bench`. */
export function jsBudgetLines(root) {
  const { budgetKb, pages } = jsBudget(root)
  return Object.entries(pages).map(
    ([page, r]) => `  ${page.padEnd(22)} ${r.kb.toFixed(1)} KB gzip JS in ${r.files} files (budget ≤ ${budgetKb}: ${r.kb <= budgetKb ? 'ok' : 'OVER'}); biggest: ${r.biggest.join(', ')}`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(jsBudgetLines().join('\n'))
