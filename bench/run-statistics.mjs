// `node --import tsx bench/run-statistics.mjs`: the statistics bench alone (npm run bench runs it with everything
// else). Uses the built API (server/dist/main.js; `npm run build:api` first), a fresh PGlite data dir,
// or a throw-away database on BENCH_DATABASE_URL when set.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { benchApi } from './api.ts'
import { statisticsBench } from './statistics.mjs'

const children = []
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')))

async function waitFor(url) {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`not up: ${url}`)
}
function startApi(env, port) {
  const child = spawn(process.execPath, ['server/dist/main.js'], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] })
  children.push(child)
  return waitFor(benchApi(`http://127.0.0.1:${port}`).health).then(() => child)
}
const stopChild = (child) => (child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))))
async function sequential(targets, n) {
  const times = targets.map(() => [])
  for (let i = 0; i < 20 + n; i++) {
    for (const [k, t] of targets.entries()) {
      const started = performance.now()
      const res = await fetch(t.url, { headers: t.headers })
      const body = await res.text()
      if (res.status !== 200) throw new Error(`${t.url}: ${res.status} ${body.slice(0, 200)}`)
      if (i >= 20) times[k].push(performance.now() - started)
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b)
    const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))]
    return { p50: at(0.5), p99: at(0.99) }
  })
}

const port = Number(process.env.BENCH_API_PORT ?? 4139)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-stats-bench-'))
let databaseUrl
let drop = async () => {}
const pgUrl = process.env.BENCH_DATABASE_URL
if (pgUrl) {
  const { default: pg } = await import('pg')
  const name = `payshare_stats_bench_${Date.now()}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const u = new URL(pgUrl)
  u.pathname = `/${name}`
  databaseUrl = u.toString()
  drop = async () => {
    const c = new pg.Client({ connectionString: pgUrl })
    await c.connect()
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  }
}
const env = { NODE_ENV: 'production', DATA_DIR: dataDir, API_PORT: String(port), ADMIN_PASSWORD: 'Bench@2026', LOG_LEVEL: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }
// Migrated and seeded by a first start, then stopped for the load.
await stopChild(await startApi(env, port))
try {
  const rows = await statisticsBench({ label: databaseUrl ? 'PostgreSQL' : 'PGlite', dataDir, databaseUrl, apiPort: port, adminPassword: 'Bench@2026', startApi: () => startApi(env, port), stopChild, sequential, requests: Number(process.env.BENCH_STATS_REQUESTS ?? 100) })
  console.log('| what | p50 ms | p99 ms | target (p99) | |')
  console.log('|---|---:|---:|---:|---|')
  for (const r of rows) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.target === null ? '—' : `≤ ${r.target} ms`} | ${r.target === null ? '' : r.p99 <= r.target ? 'ok' : 'OVER'} |`)
} finally {
  await drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
process.exit(0)
