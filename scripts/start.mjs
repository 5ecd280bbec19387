// `npm start`: build when the build is missing or older than the sources, then start the API (waits
// until it answers) and the console. Ctrl-C stops both.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
// `npm start` is the local try-out of the production build: it opts into the sandbox gateway (the API
// warns loudly at start); a deployment runs server/dist/main.js, where NODE_ENV=production keeps it off.
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'production',
  TZ: process.env.TZ ?? 'Asia/Shanghai',
  PAYMENTS_SANDBOX: process.env.PAYMENTS_SANDBOX ?? 'true',
  // The local try-out: QQ / WeChat login through the sandbox consent page unless credentials are set.
  OAUTH_SANDBOX: process.env.OAUTH_SANDBOX ?? 'true',
}
const webPort = Number(env.PORT ?? 3000)
const apiPort = Number(env.API_PORT ?? 4000)

function newest(dir) {
  let t = 0
  if (!fs.existsSync(dir)) return t
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs)
  }
  return t
}
const mtime = (f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)
const sources = Math.max(newest('contract'), mtime('package.json'))
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
if (mtime('server/dist/main.js') < Math.max(sources, newest('server/src'), newest('server/drizzle'))) {
  console.log('Building the API…')
  run(process.execPath, ['scripts/build-api.mjs'])
}
if (mtime('build/server/index.js') < Math.max(sources, newest('app'), newest('public'), mtime('vite.config.ts'), newest('vite'))) {
  console.log('Building the console…')
  run(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'])
}

if (process.env.BUILD_ONLY === '1') process.exit(0)

const children = []
const stop = (code = 0) => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  setTimeout(() => process.exit(code), 300)
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

const api = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], { stdio: 'inherit', env: { ...env, API_PORT: String(apiPort) } })
children.push(api)
api.on('exit', (code) => {
  console.error(`API exited (${code})`)
  stop(code ?? 1)
})

const apiUrl = env.API_URL ?? `http://127.0.0.1:${apiPort}`
// A first start migrates and seeds (argon2 hashes); on a busy machine that has taken over a minute.
const STARTUP_MS = Number(env.API_START_TIMEOUT ?? 180) * 1000
const deadline = Date.now() + STARTUP_MS
while (true) {
  try {
    const r = await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(3000) })
    if (r.ok) break
  } catch {}
  if (Date.now() > deadline) {
    console.error(`The API did not answer at ${apiUrl} within ${STARTUP_MS / 1000} s (API_START_TIMEOUT)`)
    stop(1)
  }
  await new Promise((r) => setTimeout(r, 200))
}

const web = spawn(process.execPath, ['web-server.mjs'], { stdio: 'inherit', env: { ...env, PORT: String(webPort), API_URL: apiUrl } })
children.push(web)
web.on('exit', (code) => {
  console.error(`Console exited (${code})`)
  stop(code ?? 1)
})
// Announce only once the console answers.
const webDeadline = Date.now() + STARTUP_MS
while (true) {
  try {
    const r = await fetch(`http://127.0.0.1:${webPort}/login`, { redirect: 'manual', signal: AbortSignal.timeout(3000) })
    if (r.status < 500) break
  } catch {}
  if (Date.now() > webDeadline) {
    console.error(`The console did not answer on port ${webPort} within ${STARTUP_MS / 1000} s`)
    stop(1)
  }
  await new Promise((r) => setTimeout(r, 100))
}
console.log(`\n  PayShare is running: http://localhost:${webPort}  (API ${apiUrl}, docs ${apiUrl}/api/docs)\n`)
