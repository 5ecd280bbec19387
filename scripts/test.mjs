// `npm test`: every test. Vitest (unit + API integration on PGlite), the API tests again on PostgreSQL
// when TEST_DATABASE_URL is set, then Playwright (JS on and off) in Debian's Chromium. Prints one
// closing line `N passed, N failed, N skipped` over all of them.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-test-'))
const totals = { passed: 0, failed: 0, skipped: 0 }
let failedStep = false

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (r.status !== 0) {
    failedStep = true
    console.error(`✖ ${label} failed (exit ${r.status})`)
  }
  return r.status === 0
}

function countVitest(file) {
  if (!fs.existsSync(file)) return
  const j = JSON.parse(fs.readFileSync(file, 'utf8'))
  totals.passed += j.numPassedTests ?? 0
  totals.failed += j.numFailedTests ?? 0
  totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0)
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return
  const s = JSON.parse(fs.readFileSync(file, 'utf8')).stats ?? {}
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0)
  totals.failed += s.unexpected ?? 0
  totals.skipped += s.skipped ?? 0
}

const vitest = path.join('node_modules', 'vitest', 'vitest.mjs')
const pgliteJson = path.join(tmp, 'vitest-pglite.json')
run('unit + API tests (PGlite)', process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${pgliteJson}`])
countVitest(pgliteJson)

if (process.env.TEST_DATABASE_URL) {
  const pgJson = path.join(tmp, 'vitest-pg.json')
  // Only the files that open a database: pure rules and provider tests ran above and do not depend on it.
  const dbTests = ['server', path.join('tests', 'adversarial')]
    .flatMap((dir) => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f))))
    .filter((f) => f.endsWith('.test.ts') && /buildTestApp|openTestDatabase|DATABASE_URL/.test(fs.readFileSync(f, 'utf8')))
  run('API tests (PostgreSQL)', process.execPath, [vitest, 'run', ...dbTests, '--reporter=default', '--reporter=json', `--outputFile.json=${pgJson}`], {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
  })
  countVitest(pgJson)
}

if (process.env.SKIP_E2E !== '1') {
  if (run('Chromium', process.execPath, ['scripts/ensure-chromium.mjs'])) {
    const pwJson = path.join(tmp, 'playwright.json')
    run('end-to-end tests (Playwright, JS on and off)', process.execPath, [path.join('node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    })
    countPlaywright(pwJson)
  }
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
fs.rmSync(tmp, { recursive: true, force: true })
process.exit(failedStep || totals.failed > 0 ? 1 : 0)
