// The browser the e2e tests and the bench scripts launch: E2E_CHROMIUM when set, else Debian's headless
// shell, else Debian's full Chromium (scripts/ensure-chromium.mjs installs the shell).
import fs from 'node:fs'

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const FULL = '/usr/bin/chromium'

/** @returns {string} */
export function chromiumPath() {
  if (process.env.E2E_CHROMIUM) return process.env.E2E_CHROMIUM
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL
}
