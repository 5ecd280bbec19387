// `npm run bench`: starts what it measures (its own API + console on a fresh PGlite data dir, and on
// PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL is set), plus two baselines in the same run —
// a bare Fastify JSON route and a bare Remix page with no UI library — then prints requests/s and
// p50/p99 latency at 50 connections, the ratios to the baselines, and the gzip bytes of a first visit
// to the share page. Machines are noisy: read the ratios — each product figure is measured in rounds
// that alternate with its baseline (BENCH_ROUNDS, 3; medians), so the machine's noise hits both alike,
// and both databases' products take their turns in the same rounds (decision 162).
// Beside them, the API's own CPU time per answer at a fixed rate (decision 161).
// Then (issue 24) the load phase: BENCH_LOAD_CONNECTIONS (200) for BENCH_LOAD_SECONDS (45) on the
// anonymous share page, a paid share page and the workplace, p50/p99 and the 503s the console's load
// shedder answered; and a slow phone's first visits (bench/throttled.mjs).
// BENCH_ONLY=share,load,throttled,lighthouse,budget,income,sse,statistics,linkcheck runs only those parts.
// Then, per database, income at scale (issue 7): one seller with BENCH_INCOME_ORDERS (200,000) orders,
// their ledger rows and aggregates bulk-inserted by SQL (bench/income-orders.mjs), and the latency of
// the seller's GET /api/income/summary and /api/income/daily?days=30, one request at a time, beside
// GET /api/health measured the same way and the targets (≤ 20 ms, ≤ 50 ms).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import { BENCH_SELLER, seedPglite, seedPostgres } from '../bench/income-orders.mjs'
import { benchSse, printSse } from '../bench/sse.mjs'
import { benchLinkCheck, printLinkCheck } from '../bench/linkcheck.mjs'
import { jsBudgetLines } from '../bench/js-budget.mjs'
import { lighthouseLines } from '../bench/lighthouse.mjs'
import { throttledLines } from '../bench/throttled.mjs'
import { statisticsBench } from '../bench/statistics.mjs'
import { benchApi } from '../bench/api.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const INCOME_ORDERS = Number(process.env.BENCH_INCOME_ORDERS ?? 200_000)
const INCOME_REQUESTS = Number(process.env.BENCH_INCOME_REQUESTS ?? 1000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3)
const LOAD_CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200)
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 45)
const ONLY = new Set((process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean))
/** Whether a part of the bench runs (BENCH_ONLY unset: all of them). */
const runs = (part) => ONLY.size === 0 || ONLY.has(part)
const children = []
const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'))
process.on('exit', stopAll)
process.on('SIGINT', () => process.exit(130))

function start(label, args, env, readyUrl) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  child.on('exit', (code) => code && code !== 143 && console.error(`${label} exited ${code}\n${log.slice(-2000)}`))
  return waitFor(readyUrl, label).then(() => child)
}

async function waitFor(url, label) {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url)
      if (r.status < 500) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${label} did not come up at ${url}`)
}

function measure(url, opts = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: opts.connections ?? CONNECTIONS, duration: opts.seconds ?? SECONDS, headers: opts.headers ?? {} }, (err, r) => {
      if (err) return reject(err)
      const busy = r.statusCodeStats?.['503']?.count ?? 0
      if (!opts.quiet && (r.non2xx || r.errors)) console.warn(`  ! ${url}: ${r.non2xx} non-2xx (${busy} of them 503), ${r.errors} errors`)
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, busy, errors: r.errors, total: r.requests.total })
    })
  })
}

const medianOf = (list, key) => [...list].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)]

/**
 * Each pair measured in ROUNDS rounds, the baseline and the product taking turns, so that a busy moment
 * of the machine falls on both alike; the medians of the rounds (requests/s, p50, p99).
 */
async function interleaved(pairs) {
  const results = pairs.map(() => ({ base: [], product: [] }))
  // A warm-up of every URL first, not counted: the first round met code not yet compiled by V8 (a fresh
  // console's share page: 447 renders/s in the first round against 633–758 in the next two), and the
  // console's load shedder had not yet measured that page (decision 163).
  for (const pair of pairs) for (const { url } of [pair.base, pair.product]) await measure(url, { seconds: WARM_UP_SECONDS, quiet: true })
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, pair] of pairs.entries()) {
      results[k].base.push(await measure(pair.base.url))
      results[k].product.push(await measure(pair.product.url))
    }
  }
  const med = (list) => ({ rps: medianOf(list, 'rps'), p50: medianOf(list, 'p50'), p99: medianOf(list, 'p99'), rounds: list.map((r) => Math.round(r.rps)) })
  // The ratio is the median of each round's own ratio: a round's two runs are next to each other in time.
  return results.map((r) => ({ base: med(r.base), product: med(r.product), ratio: medianOf(r.product.map((p, i) => ({ ratio: p.rps / r.base[i].rps })), 'ratio') }))
}

const CPU_RATE = Number(process.env.BENCH_CPU_RATE ?? 10_000)
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100)
/** The CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK
  } catch {
    return null
  }
}

/**
 * The server's own CPU time per answer (µs) at a fixed CPU_RATE for 5 s, each target in turn, ROUNDS
 * rounds, medians (decision 161). On a 2-core machine the load generator shares the cores with the server,
 * so requests/s also measures the generator; this is the server's cost alone.
 */
async function cpuPerAnswer(targets) {
  if (cpuMs(process.pid) === null) return null
  const per = targets.map(() => [])
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, t] of targets.entries()) {
      const c0 = cpuMs(t.pid)
      const total = await new Promise((resolve, reject) =>
        autocannon({ url: t.url, connections: CONNECTIONS, duration: 5, overallRate: CPU_RATE }, (err, r) => (err ? reject(err) : resolve(r.requests.total))),
      )
      per[k].push(((cpuMs(t.pid) - c0) * 1000) / total)
    }
  }
  return per.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)])
}

/**
 * Hands bare Fastify the answer `url` gives (its headers but those of the connection, and its body) to
 * send as its own from `<bare>/answer`; returns that URL.
 */
async function keepAnswer(bareUrl, url) {
  const res = await fetch(url)
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)))
  const answerUrl = new URL('/answer', bareUrl).toString()
  const put = await fetch(answerUrl, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ headers, body: await res.text() }) })
  if (!put.ok) throw new Error(`bare Fastify refused the answer: ${put.status}`)
  return answerUrl
}

/** A console session's cookie header, from logging in through the console's own form. */
async function consoleCookie(webBase, username, password) {
  const res = await fetch(`${webBase}/login`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ intent: 'login', username, password }) })
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0])
  if (res.status !== 302 || !cookies.length) throw new Error(`console login as ${username}: ${res.status}`)
  return cookies.join('; ')
}

/** The console's own histogram (/metrics, every worker's) of a route's 200 answers: count per bucket bound. */
async function servedHistogram(webBase, route) {
  const text = await (await fetch(`${webBase}/metrics`)).text()
  const line = new RegExp(`^http_request_duration_seconds_bucket\\{le="([^"]+)",method="GET",route="${route.replace(/[/:]/g, '\\$&')}",status="200"\\} (\\d+)$`, 'gm')
  return new Map([...text.matchAll(line)].map((m) => [m[1], Number(m[2])]))
}

/**
 * The pages a load run served (200), and their p99 as the console measured them (the upper bound of the
 * histogram bucket it falls in): autocannon's p99 is over every answer, the busy page's included, and
 * with most answers shed it says little about the pages that were served.
 */
function servedBetween(before, after) {
  const bounds = [...after.keys()].filter((le) => le !== '+Inf').sort((a, b) => Number(a) - Number(b))
  const served = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0)
  const bound = bounds.find((le) => (after.get(le) ?? 0) - (before.get(le) ?? 0) >= 0.99 * served)
  return { served, servedP99: served === 0 ? null : bound === undefined ? Infinity : Number(bound) * 1000 }
}

async function firstVisitBytes(pageUrl) {
  const res = await fetch(pageUrl)
  const html = await res.text()
  const origin = new URL(pageUrl).origin
  const assets = [...html.matchAll(/(?:href|src)="(\/[^"]+\.(?:css|js|svg|woff2?))"/g)].map((m) => m[1])
  let total = gzipSync(html).length
  const parts = [`html ${gzipSync(html).length}`]
  for (const a of new Set(assets)) {
    const body = Buffer.from(await (await fetch(origin + a)).arrayBuffer())
    const gz = gzipSync(body).length
    total += gz
    parts.push(`${a.split('/').pop()} ${gz}`)
  }
  return { total, parts, scripts: (html.match(/<script/g) ?? []).length }
}

/** Until the child has exited (its database closed), after asking it to stop. */
function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}

/**
 * Latency of one request at a time (keep-alive), after a warm-up: what one seller opening the
 * dashboard waits, without the queueing of a load test. The URLs take turns, so a busy moment of the
 * machine falls on all of them alike. Fails on any non-200 answer.
 */
async function sequential(targets, n = INCOME_REQUESTS) {
  const once = async ({ url, headers }) => {
    const started = performance.now()
    const res = await fetch(url, { headers })
    const body = await res.text()
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`)
    return performance.now() - started
  }
  const times = targets.map(() => [])
  for (let i = 0; i < 50 + n; i++) {
    for (const [k, t] of targets.entries()) {
      const ms = await once(t)
      if (i >= 50) times[k].push(ms)
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b)
    const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))]
    return { p50: at(0.5), p99: at(0.99) }
  })
}

const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1))
const incomeRows = []
const statisticsRows = []
const rows = []
const cpuRows = []
const record = (name, r, ratio = null, target = null) => rows.push({ name, ...r, ratio, target })

// Builds (the product when stale, the bare Remix baseline always).
spawnSync(process.execPath, ['scripts/start.mjs', '--build-only'], { stdio: 'inherit', env: { ...process.env, BUILD_ONLY: '1' } })
const bareBuild = spawnSync(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build', '--config', 'bench/bare-remix/vite.config.ts'], { stdio: 'inherit' })
if (bareBuild.status !== 0) process.exit(1)

console.log(`\nBench: ${CONNECTIONS} connections, ${SECONDS} s each, ${os.cpus().length} cores (load generator on the same machine)\n`)
// BENCH_PORT_OFFSET moves every port of the bench, so that two benches can run side by side.
const PORT_OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0)
const bareFastify = await start('bare fastify', ['bench/bare-fastify.mjs'], { PORT: String(4901 + PORT_OFFSET) }, `http://127.0.0.1:${4901 + PORT_OFFSET}/json`)
await start('bare remix', ['bench/bare-remix/server.mjs'], { PORT: String(3901 + PORT_OFFSET) }, `http://127.0.0.1:${3901 + PORT_OFFSET}/`)
const bareFastifyUrl = `http://127.0.0.1:${4901 + PORT_OFFSET}/json`
const bareRemixUrl = `http://127.0.0.1:${3901 + PORT_OFFSET}/`
const loadRows = []
let throttled

const targets = [{ label: 'PGlite', env: {} }]
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (pgUrl) {
  // A throw-away database on that server.
  const dbName = `${process.env.BENCH_DB_PREFIX ?? 'payshare_bench'}_${Date.now()}`
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`create database ${dbName}`)
  await admin.end()
  const u = new URL(pgUrl)
  u.pathname = `/${dbName}`
  targets.push({ label: 'PostgreSQL', env: { DATABASE_URL: u.toString() }, drop: async () => {
    const c = new pg.Client({ connectionString: pgUrl })
    await c.connect()
    await c.query(`drop database if exists ${dbName} with (force)`)
    await c.end()
  } })
}

let bytes
let budgetLines
let lighthouseRows
// Every engine's API and console are started first, so that the share rounds below measure all of them
// in the same rounds (decision 162: measured one engine after the other, whichever came first met a
// baseline 10–25% faster than the second did).
const sessions = []
for (const [i, target] of targets.entries()) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-bench-'))
  const apiPort = 4910 + PORT_OFFSET + i
  const webPort = 3910 + PORT_OFFSET + i
  const env = { ...target.env, NODE_ENV: 'production', DATA_DIR: dataDir, API_PORT: String(apiPort), PORT: String(webPort), ADMIN_PASSWORD: 'Bench@2026', LOG_LEVEL: 'warn' }
  const base = `http://127.0.0.1:${apiPort}`
  const bench = benchApi(base)
  const api = await start(`API (${target.label})`, ['server/dist/main.js'], env, bench.health)
  const web = await start(`console (${target.label})`, ['web-server.mjs'], { ...env, API_URL: base }, `http://127.0.0.1:${webPort}/login`)
  const adminToken = await bench.login('admin', 'Bench@2026')
  const unicode = await bench.approvedShare(adminToken)
  sessions.push({ target, dataDir, apiPort, env, bench, api, web, adminToken, unicode, webBase: `http://127.0.0.1:${webPort}` })
}
if (runs('share')) {
  // Bare Fastify is given /api/share's answer to send as its own (decision 164): the same headers and
  // body, none of the API's work — how far the answer's bytes alone put the route from the baseline.
  const answerUrl = await keepAnswer(bareFastifyUrl, sessions[0].bench.shareLookup(sessions[0].unicode))
  // Interleaved rounds (issue 24): bare Fastify, /api/share, bare Remix, the share page, for each engine, again and again.
  const pairs = await interleaved([
    ...sessions.flatMap(({ bench, unicode, webBase }) => [
      { base: { url: bareFastifyUrl }, product: { url: bench.shareLookup(unicode) } },
      { base: { url: bareRemixUrl }, product: { url: `${webBase}/share/${unicode}` } },
    ]),
    { base: { url: bareFastifyUrl }, product: { url: answerUrl } },
  ])
  const answerPair = pairs.at(-1)
  for (const [k, { target }] of sessions.entries()) {
    const [apiPair, pagePair] = pairs.slice(2 * k, 2 * k + 2)
    record(`bare Fastify JSON route (baseline, beside ${target.label})`, apiPair.base)
    record(`GET /api/share?unicode= (${target.label})`, apiPair.product, apiPair.ratio, 0.6)
    record(`bare Remix page (baseline, beside ${target.label})`, pagePair.base)
    record(`GET /share/{unicode} render (${target.label})`, pagePair.product, pagePair.ratio, 0.7)
  }
  record(`bare Fastify sending /api/share's answer (its headers and body; the answer's own cost, no target)`, answerPair.product, answerPair.ratio)
  const cpu = await cpuPerAnswer([{ pid: bareFastify.pid, url: bareFastifyUrl }, ...sessions.map(({ api, bench, unicode }) => ({ pid: api.pid, url: bench.shareLookup(unicode) }))])
  if (cpu) for (const [k, { target }] of sessions.entries()) cpuRows.push({ label: target.label, bare: cpu[0], share: cpu[k + 1] })
}

for (const { target, dataDir, apiPort, env, bench, api, web, adminToken, unicode, webBase } of sessions) {
  if (!bytes) bytes = await firstVisitBytes(`${webBase}/share/${unicode}`)
  if (runs('load')) {
    // Beyond capacity (issue 24): no page p99 above 2 s on PostgreSQL (5 s on PGlite); the console sheds the rest with 503.
    const paid = await bench.paidShare(adminToken)
    const seller = await consoleCookie(webBase, 'demo_seller', 'Demo@2026')
    const pages = [
      { name: 'anonymous share page', url: `${webBase}/share/${unicode}`, route: '/share/:unicode' },
      { name: 'paid share page (?order=)', url: `${webBase}/share/${paid.unicode}?order=${paid.orderNo}`, route: '/share/:unicode' },
      { name: 'workplace (demo_seller)', url: `${webBase}/dashboard/workplace`, headers: { cookie: seller }, route: '/dashboard/workplace' },
    ]
    for (const page of pages) {
      const before = await servedHistogram(webBase, page.route)
      const r = await measure(page.url, { connections: LOAD_CONNECTIONS, seconds: LOAD_SECONDS, headers: page.headers, quiet: true })
      const served = servedBetween(before, await servedHistogram(webBase, page.route))
      loadRows.push({ name: `${page.name} (${target.label})`, ...r, ...served, target: target.env.DATABASE_URL ? 2000 : 5000 })
    }
  }
  if (!throttled && runs('throttled')) throttled = await throttledLines({ base: webBase, unicode, user: 'demo_seller', password: 'Demo@2026' })
  // Lighthouse (issue 24): `/`, the share page, `/login`, and the workplace of the demo seller.
  if (!lighthouseRows && runs('lighthouse')) lighthouseRows = await lighthouseLines({ base: webBase, unicode, user: 'demo_seller', password: 'Demo@2026' })
  if (!budgetLines && runs('budget')) budgetLines = await jsBudgetLines({ base: webBase, user: 'admin', password: 'Bench@2026' })
  await Promise.all([stopChild(web), stopChild(api)])
  if (!runs('income') && !runs('statistics')) {
    await target.drop?.()
    fs.rmSync(dataDir, { recursive: true, force: true })
    continue
  }

  // Income at scale: the orders go in while the API is stopped (PGlite is one process's database).
  if (runs('income')) {
    const seedStarted = performance.now()
    if (target.env.DATABASE_URL) await seedPostgres(target.env.DATABASE_URL, INCOME_ORDERS)
    else await seedPglite(dataDir, INCOME_ORDERS)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    const incomeApi = await start(`API (${target.label}, ${INCOME_ORDERS} orders)`, ['server/dist/main.js'], env, bench.health)
    const sellerToken = await bench.login(BENCH_SELLER, 'Bench@2026')
    const auth = { authorization: `Bearer ${sellerToken}` }
    const summary = await bench.incomeSummary(sellerToken)
    const incomeTargets = bench.incomeTargets()
    // The health check is the baseline: sent as before, without the seller's token.
    const incomeTimes = await sequential(incomeTargets.map((t) => ({ url: t.url, headers: t.target === null ? {} : auth })))
    for (const [k, t] of incomeTargets.entries()) incomeRows.push({ name: `${t.name} (${target.label})`, ...incomeTimes[k], target: t.target })
    console.log(`  ${target.label}: ${INCOME_ORDERS.toLocaleString('en')} orders seeded in ${seedSeconds.toFixed(1)} s; the seller's summary: ${JSON.stringify(summary)}`)
    await stopChild(incomeApi)
  }
  // Statistics at scale (issue 9): its own fixture on the same database, then the statistics and admin lists timed.
  if (runs('statistics')) statisticsRows.push(...(await statisticsBench({ label: target.label, dataDir, databaseUrl: target.env.DATABASE_URL, apiPort, adminPassword: 'Bench@2026', startApi: () => start(`API (${target.label}, statistics)`, ['server/dist/main.js'], env, bench.health), stopChild, sequential, requests: Number(process.env.BENCH_STATS_REQUESTS ?? 100) })))
  await target.drop?.()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

if (rows.length) {
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, medians of ${ROUNDS} rounds taking turns with the baseline; vs baseline: the median of the rounds' own ratios`)
  console.log('| what | req/s | p50 ms | p99 ms | req/s each round | vs baseline | target | |')
  console.log('|---|---:|---:|---:|---|---:|---:|---|')
  for (const r of rows) {
    const verdict = r.target === null ? '' : r.ratio >= r.target ? 'ok' : 'UNDER'
    console.log(`| ${r.name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.rounds.join(', ')} | ${r.ratio === null ? '—' : `${(r.ratio * 100).toFixed(0)}%`} | ${r.target === null ? '—' : `≥ ${r.target * 100}%`} | ${verdict} |`)
  }
}
if (cpuRows.length) {
  console.log(`\nThe API's own CPU per answer at ${CPU_RATE.toLocaleString('en')} req/s (${CONNECTIONS} connections, medians of ${ROUNDS} rounds of 5 s taking turns): the share lookup's cost beside bare Fastify's`)
  console.log('| database | bare Fastify µs | GET /api/share µs | bare ÷ share |')
  console.log('|---|---:|---:|---:|')
  for (const r of cpuRows) console.log(`| ${r.label} | ${r.bare.toFixed(1)} | ${r.share.toFixed(1)} | ${((100 * r.bare) / r.share).toFixed(0)}% |`)
}
console.log(`\nFirst visit to /share/{unicode}: ${bytes.total} bytes gzip in total (${bytes.parts.join(', ')}); ${bytes.scripts} script tag(s)`)
console.log('Targets: share page ≥ 1,000 renders/s, p99 ≤ 50 ms, ≥ 70% of the bare Remix page; /api/share ≥ 60% of bare Fastify; first visit ≤ 60 KB gzip.')
if (loadRows.length) {
  console.log(`\nLoad (issue 24): ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s on each page; 503 = shed by the console (Retry-After, the busy page)`)
  console.log('p50/p99: every answer, as autocannon saw it; served: the 200 answers, p99 as the console measured them (its /metrics histogram: the bucket\'s upper bound)')
  console.log('| what | req/s | p50 ms | p99 ms | served/s | served p99 ms | 503 | other errors | target (p99) | |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const r of loadRows) {
    // A run that served no page at all (every answer shed or failed) is no pass, however fast the refusals were.
    const verdict = r.served === 0 ? 'NONE SERVED' : r.p99 <= r.target && r.servedP99 <= r.target ? 'ok' : 'OVER'
    console.log(`| ${r.name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${fmt(r.served / LOAD_SECONDS)} | ≤ ${r.servedP99 ?? '—'} | ${r.busy.toLocaleString('en')} of ${r.total.toLocaleString('en')} | ${r.non2xx - r.busy} | ≤ ${r.target / 1000} s | ${verdict} |`)
  }
}
if (throttled) console.log(`\n${throttled.join('\n')}`)
if (incomeRows.length) {
  console.log(`\nIncome at scale: one seller with ${INCOME_ORDERS.toLocaleString('en')} orders; ${INCOME_REQUESTS} requests of each, one at a time (keep-alive, taking turns) after a warm-up`)
  console.log('| what | p50 ms | p99 ms | target (p99) | |')
  console.log('|---|---:|---:|---:|---|')
  for (const r of incomeRows) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.target === null ? '—' : `≤ ${r.target} ms`} | ${r.target === null ? '' : r.p99 <= r.target ? 'ok' : 'OVER'} |`)
}
if (runs('sse')) printSse(await benchSse({ port: 4931 + PORT_OFFSET }))
if (budgetLines) console.log(`\nConsole JavaScript on a first load (issue 11; gzip, counted in a browser with an empty cache until the page has hydrated):\n${budgetLines.join('\n')}`)
if (lighthouseRows) console.log(`\nLighthouse, mobile (simulated throttling), the median of BENCH_LIGHTHOUSE_RUNS (3) runs (issue 24):\n${lighthouseRows.join('\n')}`)
if (statisticsRows.length) {
  console.log('\nStatistics at scale (issue 9; sizes in the lines above): one request at a time (keep-alive, taking turns) after a warm-up')
  console.log('| what | p50 ms | p99 ms | target (p99) | |')
  console.log('|---|---:|---:|---:|---|')
  for (const r of statisticsRows) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.target === null ? '—' : `≤ ${r.target} ms`} | ${r.target === null ? '' : r.p99 <= r.target ? 'ok' : 'OVER'} |`)
}
// Dead links (issue 25): a daily check round against a local fixture, in this process (bench/linkcheck.mjs).
if (runs('linkcheck')) printLinkCheck(await benchLinkCheck())
stopAll()
process.exit(0)
