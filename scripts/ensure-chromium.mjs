// Makes sure the browser the e2e tests launch exists: Debian's `chromium-headless-shell` package
// (STACK.md: `npx playwright install` cannot download here). It is the same browser Playwright runs
// headless by default — no browser UI, no GPU process — and a third faster than the full `chromium`
// in our suite (decision 095). Installs it with apt-get when missing; the full `chromium` at
// /usr/bin/chromium is the fallback when the shell cannot be installed.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { chromiumPath, HEADLESS_SHELL } from './chromium-path.mjs'

function run(cmd, args) {
  console.log(`$ ${[cmd, ...args].join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  if (r.error) console.error(`ensure-chromium: could not run ${cmd}: ${r.error.message}`)
  return r.status === 0
}

const executable = (file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}

if (process.env.E2E_CHROMIUM || executable(HEADLESS_SHELL)) {
  const browser = chromiumPath()
  if (executable(browser)) {
    console.log(`ensure-chromium: ${browser} is present.`)
    process.exit(0)
  }
  console.error(`ensure-chromium: E2E_CHROMIUM=${browser} is not an executable file.`)
  process.exit(1)
}

console.log(`ensure-chromium: ${HEADLESS_SHELL} is missing; installing the Debian package "chromium-headless-shell".`)
const root = typeof process.getuid === 'function' && process.getuid() === 0
const sudo = root ? [] : ['sudo', '-n']
const apt = (...args) => (sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args]) : run('apt-get', args))
if (apt('update')) apt('install', '-y', '--no-install-recommends', 'chromium-headless-shell')

const browser = chromiumPath()
if (!executable(browser)) {
  console.error(
    `ensure-chromium: no browser at ${HEADLESS_SHELL} or /usr/bin/chromium. Install Debian's "chromium-headless-shell" ` +
      '(or "chromium") package, or point E2E_CHROMIUM at a Chromium binary; the e2e tests cannot run without it.',
  )
  process.exit(1)
}
console.log(`ensure-chromium: using ${browser}.`)
