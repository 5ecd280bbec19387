import fs from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

/** What a package's index re-exports: exported name → the file (absolute, or another package) and the name there. */
type ExportMap = Map<string, { file: string; name: string }>

const REEXPORT = /^export \{([^}]*)\} from '([^']+)';$/
/** Lines of an index that neither re-export nor do anything (a side-effect-free import, a source map comment). */
const INERT = /^(import '\.[^']+';|\/\/# sourceMappingURL=.*|)$/

/**
 * The names of an index made only of `export { a, b as c } from './file.mjs'` lines (as Mantine's are),
 * or null when it has anything else (then its imports are left alone).
 */
export function readExportMap(indexFile: string): ExportMap | null {
  if (!sideEffectFree(indexFile)) return null
  const map: ExportMap = new Map()
  for (const line of fs.readFileSync(indexFile, 'utf8').split('\n')) {
    const m = REEXPORT.exec(line.trim())
    if (!m) {
      if (INERT.test(line.trim())) continue
      return null
    }
    // A file of the package, or another package (`export { RemoveScroll } from 'react-remove-scroll'`).
    const file = m[2].startsWith('.') ? path.resolve(path.dirname(indexFile), m[2]) : m[2]
    for (const part of m[1].split(',')) {
      const [name, as = name] = part.trim().split(/\s+as\s+/)
      if (name) map.set(as, { file, name })
    }
  }
  return map
}

/** Whether the package of a file says its modules have no side effects (`"sideEffects": false` or only stylesheets). */
function sideEffectFree(file: string): boolean {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json')
    if (!fs.existsSync(manifest)) continue
    const { name, sideEffects } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; sideEffects?: unknown }
    // Mantine's esm folder has a package.json of its own ({"type": "module"}): the package's is the named one.
    if (!name) continue
    return sideEffects === false || (Array.isArray(sideEffects) && sideEffects.every((p) => typeof p === 'string' && p.endsWith('.css')))
  }
  return false
}

/** An import or export declaration as Rollup's parser gives it (ESTree). */
type ImportNode = {
  type: string
  start: number
  end: number
  source?: { value: unknown } | null
  specifiers: { type: string; imported?: { name?: string }; local: { name?: string }; exported?: { name?: string } }[]
}

/**
 * `import { Button, Table } from '@mantine/core'` becomes one import per file that defines the names
 * (`…/esm/components/Button/Button.mjs`), in the browser build, for the packages named (what Next.js
 * calls optimizePackageImports). The bundle does not change (the index is free of side effects and
 * tree-shaken either way), but the module graph then says which component files a module really uses,
 * where through the index every module "imports" all of the package: the graph `landingChunks` groups
 * modules by (decision 152).
 */
export function importsByFile(packages: string[]): Plugin {
  const maps = new Map<string, Promise<ExportMap | null>>()
  return {
    name: 'payshare:imports-by-file',
    apply: 'build',
    async transform(code, id, options) {
      // Script modules only: a stylesheet may name the package too (`@import '@mantine/core/styles/…'`).
      if (options?.ssr || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0]) || !packages.some((p) => code.includes(p))) return null
      const ast = this.parse(code) as unknown as { body: ImportNode[] }
      const edits: { start: number; end: number; text: string }[] = []
      for (const node of ast.body) {
        const kind = node.type === 'ImportDeclaration' ? 'import' : node.type === 'ExportNamedDeclaration' && node.source ? 'export' : null
        if (!kind || typeof node.source!.value !== 'string' || !packages.includes(node.source!.value)) continue
        const pkg = node.source!.value
        if (!maps.has(pkg))
          maps.set(
            pkg,
            this.resolve(pkg, id).then((r) => (r && !r.external ? readExportMap(r.id) : null)),
          )
        const map = await maps.get(pkg)
        if (!map || node.specifiers.some((s) => s.type !== (kind === 'import' ? 'ImportSpecifier' : 'ExportSpecifier'))) continue
        // `import '@mantine/hooks'` (left in Mantine's own files by its bundler) runs nothing: the index
        // only re-exports, and the package declares its modules free of side effects.
        if (node.specifiers.length === 0) {
          edits.push({ start: node.start, end: node.end, text: '' })
          continue
        }
        // import { name as local } / export { local as exported }: the package's name is the imported / the local one.
        const targets = node.specifiers.map((s) =>
          kind === 'import' ? { to: map.get(s.imported?.name ?? ''), as: s.local.name } : { to: map.get(s.local.name ?? ''), as: s.exported?.name ?? '' },
        )
        if (targets.some((t) => !t.to || !t.as)) continue
        const text = targets.map((t) => `${kind} { ${t.to!.name} as ${t.as} } from ${JSON.stringify(t.to!.file)};`).join('')
        edits.push({ start: node.start, end: node.end, text })
      }
      if (!edits.length) return null
      let out = code
      for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end)
      return { code: out, map: null }
    },
  }
}
