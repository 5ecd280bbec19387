// Where the e2e suite runs the product; shared by playwright.config.ts, the global setup and the tests.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const WEB_PORT = Number(process.env.E2E_PORT ?? 3300)
export const API_PORT = Number(process.env.E2E_API_PORT ?? 4300)
export const BASE_URL = `http://localhost:${WEB_PORT}`
export const API_URL = `http://127.0.0.1:${API_PORT}`
export const ADMIN = { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD ?? 'E2e-Admin#2026' }
/**
 * Sale income settles at once in the e2e server (an operator may set 0 too: no unsettled period), so no
 * test waits for a settlement; the delay itself is proven with a moved clock in the API's tests
 * (server/src/modules/withdrawals/withdrawals.test.ts, income.test.ts).
 */
export const SETTLEMENT_DELAY_HOURS = 0
/**
 * Tags of playwright.config.ts's projects (decision 108): `@js-off` runs in both projects, `@js-off-only`
 * in the JS-off one only (a journey run in one language with JavaScript and in the other without).
 */
export const JS_OFF = /@js-off/
export const JS_OFF_ONLY = /@js-off-only/
/** Seeded by the API on first start (server/src/db/seed.ts). */
export const DEMO_PASSWORD = 'Demo@2026'

const RUN_PREFIX = 'payshare-e2e-'
const STALE_MS = 3 * 60 * 60 * 1000

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A fresh directory per run, made by the runner when it loads the config (named after its process id);
 * the workers it starts inherit it through the environment. Directories left by runs whose runner has
 * exited are removed on the way, so concurrent runs keep theirs.
 */
function runDir(): string {
  if (process.env.PAYSHARE_E2E_RUN_DIR) return process.env.PAYSHARE_E2E_RUN_DIR
  const tmp = os.tmpdir()
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(RUN_PREFIX)) continue
    const dir = path.join(tmp, name)
    try {
      const runner = /^payshare-e2e-(\d+)-/.exec(name)
      // Unnamed (older) directories go once they are a few hours old.
      const finished = runner ? !alive(Number(runner[1])) : Date.now() - fs.statSync(dir).mtimeMs > STALE_MS
      if (finished) fs.rmSync(dir, { recursive: true, force: true })
    } catch {
      // Another run removed it first.
    }
  }
  process.env.PAYSHARE_E2E_RUN_DIR = fs.mkdtempSync(path.join(tmp, `${RUN_PREFIX}${process.pid}-`))
  return process.env.PAYSHARE_E2E_RUN_DIR
}

export const RUN_DIR = runDir()
/** The API's database and secrets: empty at the start of every run. */
export const DATA_DIR = path.join(RUN_DIR, 'data')
