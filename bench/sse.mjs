// Issue 10 bench: 1,000 open SSE streams (GET /api/events) on one API instance. Prints the API
// process's resident memory with 0 streams (the baseline) and with all of them open, and the time from
// publishing one notification until every stream has received it, beside the targets (≤ 200 MB, ≤ 1 s).
// `node --import tsx bench/sse.mjs` runs it alone (bench/api.ts is TypeScript); `npm run bench` calls benchSse() (needs server/dist built).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchApi } from './api.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

async function waitFor(url) {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`the API did not come up at ${url}`)
}

/** Opens one stream; resolves once the headers arrived; `onEvent(type)` for each event. */
function openStream(url, token, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`))
      res.setEncoding('utf8')
      let buf = ''
      res.on('data', (chunk) => {
        buf += chunk
        let i
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i)
          buf = buf.slice(i + 2)
          const type = /^event: (.*)$/m.exec(block)?.[1]
          if (type) onEvent(type)
        }
      })
      resolve(req)
    })
    req.on('error', reject)
  })
}

/** A throw-away database on the PostgreSQL server of `serverUrl`, and how to drop it. */
async function scratchDatabase(serverUrl) {
  const { default: pg } = await import('pg')
  const name = `payshare_bench_sse_${process.pid}`
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: serverUrl })
    await c.connect()
    await c.query(sql)
    await c.end()
  }
  await admin(`drop database if exists ${name} with (force)`)
  await admin(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) }
}

/**
 * On PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL is set (how the API is deployed: its RSS is
 * the API's own), else on PGlite, whose whole database engine lives inside the API process (its RSS
 * then includes the database; the baseline shows how much).
 */
export async function benchSse({ connections = Number(process.env.BENCH_SSE_CONNECTIONS ?? 1000), port = 4931 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-bench-sse-'))
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : null
  const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, API_PORT: String(port), ADMIN_PASSWORD: 'Bench@2026', SEED_DEMO: 'false', LOG_LEVEL: 'warn' }
  delete env.REDIS_URL
  delete env.DATABASE_URL
  if (scratch) env.DATABASE_URL = scratch.url
  const api = spawn(process.execPath, ['server/dist/main.js'], { cwd: root, env, stdio: 'ignore' })
  const bench = benchApi(`http://127.0.0.1:${port}`)
  try {
    await waitFor(bench.health)
    const token = await bench.login('admin', 'Bench@2026')
    // Warm up the route once, then let the heap settle: the baseline is the API at rest with 0 streams.
    const warm = await openStream(bench.events, token, () => {})
    warm.destroy()
    await new Promise((r) => setTimeout(r, 1500))
    const baseline = rssMb(api.pid)

    let received = 0
    let allReceived
    const done = new Promise((r) => (allReceived = r))
    const streams = []
    // Opened in batches: the point is 1,000 held open, not 1,000 handshakes at the same instant.
    for (let i = 0; i < connections; i += 100) {
      const batch = []
      for (let j = i; j < Math.min(connections, i + 100); j++) {
        batch.push(
          openStream(bench.events, token, (type) => {
            if (type === 'notification' && ++received === connections) allReceived()
          }),
        )
      }
      streams.push(...(await Promise.all(batch)))
    }
    await new Promise((r) => setTimeout(r, 1500))
    const open = rssMb(api.pid)

    const t0 = performance.now()
    await bench.publishNotification(token)
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))])
    const deliveryMs = performance.now() - t0
    for (const s of streams) s.destroy()
    return { connections, database: scratch ? 'PostgreSQL' : 'PGlite (in the API process)', baselineMb: baseline, openMb: open, deliveryMs, received }
  } finally {
    api.kill('SIGTERM')
    await new Promise((r) => api.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
    await scratch?.drop()
  }
}

/** The bench's printout: figures beside the baseline and the targets. */
export function printSse(r) {
  console.log(`\nLive events: ${r.connections} open SSE streams on one API instance (GET /api/events), one notification published to all; database: ${r.database}`)
  console.log('| what | measured | target | |')
  console.log('|---|---:|---:|---|')
  console.log(`| API RSS, 0 streams (baseline) | ${r.baselineMb.toFixed(1)} MB | — | |`)
  console.log(`| API RSS, ${r.connections} streams open | ${r.openMb.toFixed(1)} MB | ≤ 200 MB | ${r.openMb <= 200 ? 'ok' : 'OVER'} |`)
  console.log(`| delivered to all (${r.received}/${r.connections}) | ${r.deliveryMs.toFixed(0)} ms | ≤ 1000 ms | ${r.received === r.connections && r.deliveryMs <= 1000 ? 'ok' : 'OVER'} |`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  printSse(await benchSse())
}
