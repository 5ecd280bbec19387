import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * A site whose objects all survive many young collections, then whether its next object is still born
 * young (`%InYoungGeneration`, V8's own test helper). Pretenuring on: V8 has moved the site to the old
 * generation. Run in a child process of its own, with or without the API's flags module loaded first.
 */
function bornYoungAfterSurvivors(withFlags: boolean): boolean {
  const probe = `
    function make(i) { return { i, a: [i] } }
    const keep = []
    for (let i = 0; i < 4_000_000; i++) keep.push(make(i))
    console.log(%InYoungGeneration(make(1)) ? 'young' : 'old')`
  const args = ['--allow-natives-syntax', ...(withFlags ? ['--import', 'tsx', '--import', path.join(here, 'v8-flags.ts')] : []), '--input-type=module', '-e', probe]
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(r.stderr)
  return r.stdout.trim() === 'young'
}

describe("the API's V8 flags (decision 162)", () => {
  it('keep short-lived request objects young where V8 would pretenure them', () => {
    // The control: this V8 does pretenure such a site (else the check below proves nothing).
    expect(bornYoungAfterSurvivors(false)).toBe(false)
    expect(bornYoungAfterSurvivors(true)).toBe(true)
  })

  it('are set before any other module of the API is loaded', () => {
    const firstImport = fs.readFileSync(path.join(here, 'main.ts'), 'utf8').match(/^import .*$/m)?.[0]
    expect(firstImport).toBe("import './v8-flags.ts'")
  })
})
