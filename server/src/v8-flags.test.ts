import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * A site whose objects all survive the young collections (a ring of the last million is kept), and
 * whether its objects are still born young (`%InYoungGeneration`, V8's own test helper), looked at
 * every 100,000 objects. With pretenuring on, V8 moves such a site to the old generation after a few
 * hundred thousand (400,000 on this machine, loaded or not); the probe gives up at 4 million. Run in a
 * child process of its own, with or without the API's flags module loaded first.
 */
function bornYoungAfterSurvivors(withFlags: boolean): boolean {
  const probe = `
    function make(i) { return { i, a: [i] } }
    const ring = new Array(1_000_000)
    let bornOld = false
    for (let i = 0; i < 4_000_000 && !bornOld; i++) {
      ring[i % ring.length] = make(i)
      if (i % 100_000 === 99_999) bornOld = !%InYoungGeneration(make(-1))
    }
    console.log(bornOld ? 'old' : 'young')`
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
