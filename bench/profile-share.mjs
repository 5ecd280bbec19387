// `node --import tsx bench/profile-share.mjs <label> [postgres url]` (decision 150): the API built in server/dist under
// --cpu-prof, 50 connections on GET /api/share for PROF_SECONDS (15); the profile lands in /tmp/h26-prof/<label>/ with
// the load's window beside it; read it with `node bench/cpuprofile-summary.mjs <file.cpuprofile>`.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { benchApi } from './api.ts'
const [label, pgUrl] = process.argv.slice(2)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const out = `/tmp/h26-prof/${label}`
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h26-prof-'))
let dbName, dbUrl
if (pgUrl) {
  dbName = `h26api_prof_${Date.now()}`
  const c = new pg.Client({ connectionString: pgUrl }); await c.connect(); await c.query(`create database ${dbName}`); await c.end()
  const u = new URL(pgUrl); u.pathname = `/${dbName}`; dbUrl = u.toString()
}
const port = 25000 + (pgUrl ? 1 : 0)
const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, API_PORT: String(port), ADMIN_PASSWORD: 'Bench@2026', LOG_LEVEL: 'warn', ...(dbUrl ? { DATABASE_URL: dbUrl } : {}) }
const prof = process.env.NO_PROF ? [] : ['--cpu-prof', `--cpu-prof-dir=${out}`]
const child = spawn(process.execPath, [...prof, 'server/dist/main.js'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] })
const base = `http://127.0.0.1:${port}`
const bench = benchApi(base)
for (let i = 0; ; i++) { try { if ((await fetch(bench.health)).ok) break } catch {} ; await new Promise((r) => setTimeout(r, 200)) }
const token = await bench.login('admin', 'Bench@2026')
const unicode = await bench.approvedShare(token)
const url = bench.shareLookup(unicode)
const run = (seconds) => new Promise((res, rej) => autocannon({ url, connections: 50, duration: seconds }, (e, r) => (e ? rej(e) : res(r))))
await run(3)
const xacts = async () => { if (!dbUrl) return null; const c = new pg.Client({ connectionString: dbUrl }); await c.connect(); const r = await c.query('select xact_commit::int + xact_rollback::int as n from pg_stat_database where datname = current_database()'); await c.end(); return r.rows[0].n }
await new Promise((res) => setTimeout(res, 1500))
const x0 = await xacts()
const from = process.hrtime.bigint() / 1000n
const r = await run(Number(process.env.PROF_SECONDS ?? 15))
const to = process.hrtime.bigint() / 1000n
// The load's window on the monotonic clock V8's profiler also uses: the summary leaves start-up out.
fs.writeFileSync(path.join(out, 'window.json'), JSON.stringify({ from: Number(from), to: Number(to) }))
await new Promise((res) => setTimeout(res, 1500))
const x1 = await xacts()
console.log(`${label}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, total ${r.requests.total}, non2xx ${r.non2xx}`)
if (x0 !== null) console.log(`  PostgreSQL transactions during the run: ${x1 - x0 - 2} (${((x1 - x0 - 2) / r.requests.total).toFixed(4)} per request)`)
await new Promise((res) => { child.once('exit', res); child.kill('SIGTERM') })
if (dbName) { const c = new pg.Client({ connectionString: pgUrl }); await c.connect(); await c.query(`drop database if exists ${dbName} with (force)`); await c.end() }
fs.rmSync(dataDir, { recursive: true, force: true })
console.log('profile:', fs.readdirSync(out).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(out, f)).join(' '))
