import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { transformSync } from 'esbuild'
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
  const flags = withFlags ? [compiledFlagsModule()] : []
  const probe = `
    function make(i) { return { i, a: [i] } }
    const ring = new Array(1_000_000)
    let bornOld = false
    for (let i = 0; i < 4_000_000 && !bornOld; i++) {
      ring[i % ring.length] = make(i)
      if (i % 100_000 === 99_999) bornOld = !%InYoungGeneration(make(-1))
    }
    console.log(bornOld ? 'old' : 'young')`
  // TurboFan compiles `make` on the probe's own thread: compiled on a background thread, on a busy machine
  // the compilation can come so late that V8 has not yet judged the site by 4 million objects (2 of 20
  // controls came back young under three busy loops beside them; 0 of 25 with this). And no tsx in the
  // child: its loader thread alone kept the site young in some runs, so the flags module is run as the
  // JavaScript esbuild makes of it.
  const args = ['--allow-natives-syntax', '--no-concurrent-recompilation', ...flags.flatMap((f) => ['--import', f]), '--input-type=module', '-e', probe]
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' })
  for (const f of flags) fs.rmSync(path.dirname(fileURLToPath(f)), { recursive: true, force: true })
  if (r.status !== 0) throw new Error(r.stderr)
  return r.stdout.trim() === 'young'
}

/** `v8-flags.ts` as JavaScript (esbuild, as the API's build does), in a file of its own; its URL. */
function compiledFlagsModule(): string {
  const { code } = transformSync(fs.readFileSync(path.join(here, 'v8-flags.ts'), 'utf8'), { loader: 'ts', format: 'esm' })
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'v8-flags-')), 'v8-flags.mjs')
  fs.writeFileSync(file, code)
  return pathToFileURL(file).href
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
