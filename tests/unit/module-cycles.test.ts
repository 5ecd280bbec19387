// Issue 21: the API's modules import each other in one direction only (decision 118). Two modules that
// need each other hide a third, smaller one, or one hands the other a function; this test names the
// loop when someone closes one.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const MODULES = path.resolve(import.meta.dirname, '../../server/src/modules')
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g

/** Which other modules each module's product code (not its tests) imports. */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const module of fs.readdirSync(MODULES)) {
    const uses = new Set<string>()
    graph.set(module, uses)
    for (const file of fs.readdirSync(path.join(MODULES, module), { recursive: true, encoding: 'utf8' })) {
      if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file)) continue
      const from = path.join(MODULES, module, file)
      for (const [, a, b] of fs.readFileSync(from, 'utf8').matchAll(IMPORT)) {
        const specifier = (a ?? b)!
        const target = specifier.startsWith('#server/modules/')
          ? path.join(MODULES, specifier.slice('#server/modules/'.length))
          : specifier.startsWith('.')
            ? path.resolve(path.dirname(from), specifier)
            : null
        const rel = target && path.relative(MODULES, target)
        if (!rel || rel.startsWith('..')) continue
        const to = rel.split(path.sep)[0]!
        if (to !== module) uses.add(to)
      }
    }
  }
  return graph
}

/** The first loop found, as the modules along it (`a → b → a`), or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const visit = (m: string): string[] | null => {
    if (state.get(m) === 'done') return null
    if (state.get(m) === 'open') return [...trail.slice(trail.indexOf(m)), m]
    state.set(m, 'open')
    trail.push(m)
    for (const next of graph.get(m) ?? []) {
      const loop = visit(next)
      if (loop) return loop
    }
    trail.pop()
    state.set(m, 'done')
    return null
  }
  for (const m of graph.keys()) {
    const loop = visit(m)
    if (loop) return loop
  }
  return null
}

describe('API module imports', () => {
  it('finds a loop when there is one', () => {
    const graph = new Map([
      ['orders', new Set(['ledger', 'channels'])],
      ['ledger', new Set<string>()],
      ['channels', new Set(['orders'])],
    ])
    expect(findCycle(graph)).toEqual(['orders', 'channels', 'orders'])
  })

  it('form no loop', () => {
    const graph = moduleGraph()
    expect(graph.size).toBeGreaterThan(20)
    expect(findCycle(graph)).toBeNull()
  })
})
