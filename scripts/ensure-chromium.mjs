// Makes sure the browser the e2e tests launch exists: Debian's `chromium` package at /usr/bin/chromium
// (STACK.md: `npx playwright install` cannot download here). Installs it with apt-get when missing.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium'

const present = () => {
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}

function run(cmd, args) {
  console.log(`$ ${[cmd, ...args].join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  if (r.error) console.error(`ensure-chromium: could not run ${cmd}: ${r.error.message}`)
  return r.status === 0
}

if (present()) {
  console.log(`ensure-chromium: ${CHROMIUM} is present.`)
  process.exit(0)
}

console.log(`ensure-chromium: ${CHROMIUM} is missing; installing the Debian package "chromium".`)
const root = typeof process.getuid === 'function' && process.getuid() === 0
const sudo = root ? [] : ['sudo', '-n']
const apt = (...args) => (sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args]) : run('apt-get', args))
if (apt('update')) apt('install', '-y', '--no-install-recommends', 'chromium')

if (!present()) {
  console.error(
    `ensure-chromium: ${CHROMIUM} is still missing. Install Debian's "chromium" package (apt-get install chromium) ` +
      'or point E2E_CHROMIUM at a Chromium binary; the e2e tests cannot run without it.',
  )
  process.exit(1)
}
console.log(`ensure-chromium: installed ${CHROMIUM}.`)
