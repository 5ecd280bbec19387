// Decision 152: the browser build's chunks grouped by landing page, and Mantine imported by file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseAst, type Rollup } from 'vite'
import { describe, expect, it } from 'vitest'
import { landingChunks } from '../../vite/landing-chunks.ts'
import { importsByFile, readExportMap } from '../../vite/package-imports.ts'

const APP = '/repo/app/'
const ENTRIES = {
  root: `${APP}root.tsx`,
  entryClient: `${APP}entry.client.tsx`,
  login: `${APP}routes/login/route.tsx`,
  layout: `${APP}routes/_app/route.tsx`,
  workplace: `${APP}routes/_app.dashboard.workplace/route.tsx`,
}
const SETTINGS = `${APP}routes/_app.user.setting/route.tsx`
const AGREEMENT = `${APP}routes/agreement.user-privacy/route.tsx`
const LAZY = `${APP}components/income/income-chart.tsx`

/** A module graph as Rollup's manualChunks sees it: module → its static imports; entries and lazy modules marked. */
function meta(graph: Record<string, string[]>, { entries, lazy = [] }: { entries: string[]; lazy?: string[] }): Rollup.ManualChunkMeta {
  const ids = new Set([...Object.keys(graph), ...Object.values(graph).flat()])
  return {
    getModuleIds: () => ids.values(),
    getModuleInfo: (id: string) =>
      (ids.has(id)
        ? { id, isEntry: entries.includes(id), dynamicImporters: lazy.includes(id) ? ['x'] : [], importedIds: graph[id] ?? [] }
        : null) as unknown as Rollup.ModuleInfo,
  }
}

const pkg = (name: string) => `/repo/node_modules/${name}/index.mjs`
const mod = (name: string) => `${APP}components/${name}.tsx`

function chunksOf(graph: Record<string, string[]>, opts: { entries: string[]; lazy?: string[] }) {
  const manualChunks = landingChunks({ ...ENTRIES, isConsolePage: (file) => file.startsWith(`${APP}routes/_app.`) })
  const m = meta(graph, opts)
  return (id: string) => manualChunks(id, m)
}

describe('landingChunks', () => {
  const graph = {
    [ENTRIES.entryClient]: [pkg('react'), ENTRIES.root],
    [ENTRIES.root]: [pkg('react'), mod('error-boundary')],
    [ENTRIES.login]: [pkg('react'), mod('error-boundary'), mod('fields'), mod('locale-switch'), mod('agree-field')],
    [ENTRIES.layout]: [mod('locale-switch'), mod('app-layout'), mod('badge')],
    [ENTRIES.workplace]: [mod('income'), mod('cells'), mod('badge'), mod('workplace-only'), 'x.css'],
    [SETTINGS]: [mod('fields'), mod('income'), mod('app-layout')],
    [AGREEMENT]: [mod('agree-field'), mod('cells')],
    [LAZY]: [mod('income'), pkg('recharts')],
    [mod('fields')]: [pkg('conform')],
    [mod('app-layout')]: [pkg('remove-scroll')],
    [mod('income')]: ['x.css'],
  }
  const chunkOf = chunksOf(graph, {
    entries: [ENTRIES.entryClient, ENTRIES.root, ENTRIES.login, ENTRIES.layout, ENTRIES.workplace, SETTINGS, AGREEMENT],
    lazy: [LAZY],
  })

  it('puts what every page with scripts runs in vendor (packages) and base (the console’s modules)', () => {
    expect(chunkOf(pkg('react'))).toBe('vendor')
    expect(chunkOf(mod('error-boundary'))).toBe('base')
  })

  it('puts what /login and the console share in forms, the layout’s in console, the workplace’s in workplace', () => {
    expect(chunkOf(mod('locale-switch'))).toBe('forms')
    expect(chunkOf(mod('fields'))).toBe('login')
    expect(chunkOf(pkg('conform'))).toBe('login')
    expect(chunkOf(mod('app-layout'))).toBe('console')
    expect(chunkOf(pkg('remove-scroll'))).toBe('console')
    expect(chunkOf(mod('badge'))).toBe('console')
    // Used by the workplace, another console page and a lazy chart: not by the layout.
    expect(chunkOf(mod('income'))).toBe('workplace')
  })

  it('gives what a page outside the console uses too a chunk of its own, so that the page does not load the console’s', () => {
    expect(chunkOf(mod('agree-field'))).toBe('login-shared')
    expect(chunkOf(mod('cells'))).toBe('console-shared')
  })

  it('leaves a module one entry uses, what no landing page uses, stylesheets and entries to Rollup', () => {
    expect(chunkOf(mod('workplace-only'))).toBeUndefined()
    expect(chunkOf(pkg('recharts'))).toBeUndefined()
    expect(chunkOf('x.css')).toBeUndefined()
    expect(chunkOf(ENTRIES.root)).toBeUndefined()
  })

  it('changes nothing in the server build (no browser entry)', () => {
    const server = chunksOf({ [ENTRIES.root]: [pkg('react')], [ENTRIES.login]: [pkg('react')] }, { entries: [ENTRIES.root, ENTRIES.login] })
    expect(server(pkg('react'))).toBeUndefined()
  })
})

describe('importsByFile', () => {
  const index = path.resolve('node_modules/@mantine/core/esm/index.mjs')

  it('reads Mantine’s index: each name and the file that defines it, another package’s as its name', () => {
    const map = readExportMap(index)!
    expect(map.get('Button')).toEqual({ file: path.resolve('node_modules/@mantine/core/esm/components/Button/Button.mjs'), name: 'Button' })
    expect(map.get('MANTINE_TRANSITIONS')).toEqual({
      file: path.resolve('node_modules/@mantine/core/esm/components/Transition/transitions.mjs'),
      name: 'transitions',
    })
    expect(map.get('RemoveScroll')).toEqual({ file: 'react-remove-scroll', name: 'RemoveScroll' })
  })

  it('leaves an index alone that does more than re-export', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ps-index-'))
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', sideEffects: false }))
    fs.writeFileSync(path.join(dir, 'index.mjs'), "export { a } from './a.mjs';\nexport * from './b.mjs';\n")
    expect(readExportMap(path.join(dir, 'index.mjs'))).toBeNull()
    fs.writeFileSync(path.join(dir, 'index.mjs'), "export { a } from './a.mjs';\n")
    expect(readExportMap(path.join(dir, 'index.mjs'))?.get('a')).toEqual({ file: path.join(dir, 'a.mjs'), name: 'a' })
    // A package that may have side effects: its index is imported as it is.
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x' }))
    expect(readExportMap(path.join(dir, 'index.mjs'))).toBeNull()
  })

  it('rewrites the imports and re-exports of the index to the files, and drops a bare import of it', async () => {
    const plugin = importsByFile(['@mantine/core'])
    const context = { parse: parseAst, resolve: async () => ({ id: index, external: false }) }
    const code = [
      'import { Button, Table as T } from "@mantine/core";',
      "import '@mantine/core';",
      'export { Badge } from "@mantine/core";',
      'import { useState } from "react";',
      'console.log(Button, T, useState);',
    ].join('\n')
    const transform = plugin.transform as (this: unknown, code: string, id: string, options?: { ssr?: boolean }) => Promise<{ code: string } | null>
    const out = (await transform.call(context, code, '/repo/app/x.tsx'))!.code
    const file = (name: string) => JSON.stringify(path.resolve(`node_modules/@mantine/core/esm/components/${name}/${name}.mjs`))
    expect(out).toContain(`import { Button as Button } from ${file('Button')};import { Table as T } from ${file('Table')};`)
    expect(out).toContain(`export { Badge as Badge } from ${file('Badge')};`)
    expect(out).not.toContain("'@mantine/core'")
    expect(out).not.toContain('"@mantine/core"')
    expect(out).toContain('import { useState } from "react";')
    // The server build keeps its imports.
    expect(await transform.call(context, code, '/repo/app/x.tsx', { ssr: true })).toBeNull()
  })
})
