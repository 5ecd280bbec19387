// Issue 25 bench: the cost of a daily check round of 100,000 link shares, against a local fixture server
// standing in for the netdisks (never the internet). Two parts:
// 1. the fetches: every link once through the real checker (guard, pinned lookup, per-host limiter at
//    its defaults: ≤ 20 checks of one host at a time, starts ≥ 25 ms apart), the fixture answering
//    after BENCH_LINK_LATENCY_MS (default 100) like a remote page, the links spread over
//    BENCH_LINK_HOSTS host names (default 6, the netdisks of the providers table): time, peak concurrent
//    checks in all and per host, peak memory;
// 2. the recording: BENCH_LINK_DB_SHARES (default 2,000) due shares through the schedule's sweep on an
//    embedded database (claim, check, record), its time per check, scaled to the round.
// Beside the target: the round within an hour at ≤ 20 concurrent checks per host.
// `node --import tsx bench/linkcheck.mjs` runs it alone; `npm run bench` calls benchLinkCheck().
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { LinkChecker, linkCheckSettings } from '../server/src/modules/linkcheck/checker.ts'
import { LinkFixture } from '../server/test/fakes/link-fixture.ts'

const HOSTS = ['pan.baidu.com', 'www.alipan.com', 'pan.quark.cn', 'www.123pan.com', 'wwi.lanzoux.com', 'cloud.189.cn', 'www.example.com', 'files.example.org']
const TARGET_S = 3600
const PER_HOST = 20

const rssMb = () => process.memoryUsage().rss / 1024 / 1024

async function fetchRound({ shares, hosts, latencyMs }) {
  const web = await LinkFixture.start()
  web.delayMs = latencyMs
  web.page('/s/dead', '<title>百度网盘-链接不存在</title>')
  // Every host name is the fixture; the guard lets 127.0.0.1 through only because of allowPrivate.
  const settings = { ...linkCheckSettings({}), allowPrivate: true }
  const checker = new LinkChecker(settings, async () => [{ address: '127.0.0.1', family: 4 }])
  const names = HOSTS.slice(0, hosts)
  let peakRss = rssMb()
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 200)
  const started = Date.now()
  const results = { ok: 0, dead: 0, unknown: 0 }
  // The sweep hands the checker a batch at a time (2,000 a minute-round at most); here the batches follow back to back.
  const BATCH = 2000
  for (let from = 0; from < shares; from += BATCH) {
    const batch = []
    for (let i = from; i < Math.min(shares, from + BATCH); i++) {
      const host = names[i % names.length]
      batch.push(checker.fetch(host, web.url(i % 50 === 0 ? '/s/dead' : `/s/${i}`, host)).then((o) => results[o.result]++))
    }
    await Promise.all(batch)
  }
  const seconds = (Date.now() - started) / 1000
  clearInterval(sampler)
  await web.stop()
  return { shares, hosts, latencyMs, seconds, peak: checker.limiter.peak, peakPerHost: Math.max(...checker.limiter.peakByHost.values()), peakRss, results, intervalMs: settings.hostIntervalMs }
}

async function recordRound({ shares }) {
  const { buildApp } = await import('../server/src/app.ts')
  const { loadConfig } = await import('../server/src/config.ts')
  const { openDatabase } = await import('../server/src/db/client.ts')
  const { seed } = await import('../server/src/db/seed.ts')
  const schema = await import('../server/src/db/schema/index.ts')
  const { sweepLinks } = await import('../server/src/modules/linkcheck/index.ts')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-bench-links-'))
  const web = await LinkFixture.start()
  try {
    const config = { ...loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined, LINK_CHECK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'error' }), dataDir: 'memory://' }
    const handle = await openDatabase({ dataDir: 'memory://' })
    await handle.migrate()
    await seed(handle.db, { adminPassword: 'Bench@2026', demo: false })
    const app = await buildApp({ config, db: handle.db, linkResolver: async () => [{ address: '127.0.0.1', family: 4 }], logger: false })
    await app.ready()
    const [seller] = await handle.db.insert(schema.users).values({ userName: 'bench_links', email: null, passwordHash: 'x' }).returning()
    const due = new Date(Date.now() - 1000)
    for (let from = 0; from < shares; from += 500) {
      const rows = []
      for (let i = from; i < Math.min(shares, from + 500); i++) {
        const host = HOSTS[i % 6]
        rows.push({ userId: seller.id, title: `link ${i}`, unicode: `BL${String(i).padStart(6, '0')}`, type: 'netdisk', contentEnc: app.cipher.encrypt(web.url(`/s/${i}`, host)), priceFen: 100, status: 'approved' })
      }
      const inserted = await handle.db.insert(schema.shares).values(rows).returning({ id: schema.shares.id })
      await handle.db.insert(schema.linkStates).values(inserted.map((r, k) => ({ shareId: r.id, host: HOSTS[(from + k) % 6], nextCheckAt: due })))
    }
    const started = Date.now()
    let checked = 0
    for (;;) {
      const { checked: n } = await sweepLinks(app)
      if (!n) break
      checked += n
    }
    const seconds = (Date.now() - started) / 1000
    await app.close()
    await handle.close()
    return { shares: checked, seconds, perCheckMs: (seconds * 1000) / Math.max(1, checked) }
  } finally {
    await web.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchLinkCheck() {
  const fetches = await fetchRound({
    shares: Number(process.env.BENCH_LINK_SHARES ?? 100_000),
    hosts: Number(process.env.BENCH_LINK_HOSTS ?? 6),
    latencyMs: Number(process.env.BENCH_LINK_LATENCY_MS ?? 100),
  })
  const recording = await recordRound({ shares: Number(process.env.BENCH_LINK_DB_SHARES ?? 2000) })
  return { fetches, recording }
}

export function printLinkCheck({ fetches: f, recording: r }) {
  const scaled = (r.perCheckMs * f.shares) / 1000
  // One host alone: its starts are at least `intervalMs` apart, so a round of all links on one host takes at least this.
  const oneHostS = (f.shares * f.intervalMs) / 1000
  console.log(`\nDead links (issue 25): a daily check round of ${f.shares.toLocaleString('en')} link shares against a local fixture (${f.latencyMs} ms per answer, ${f.hosts} hosts)`)
  console.log('| what | measured | target | |')
  console.log('|---|---:|---:|---|')
  console.log(`| fetches of the round | ${f.seconds.toFixed(1)} s (${Math.round(f.shares / f.seconds)} checks/s; ok ${f.results.ok}, dead ${f.results.dead}, unknown ${f.results.unknown}) | ≤ ${TARGET_S} s | ${f.seconds <= TARGET_S ? 'ok' : 'OVER'} |`)
  console.log(`| peak concurrent checks per host | ${f.peakPerHost} | ≤ ${PER_HOST} | ${f.peakPerHost <= PER_HOST ? 'ok' : 'OVER'} |`)
  console.log(`| peak concurrent checks in all | ${f.peak} | — | |`)
  console.log(`| peak memory (RSS, checker and fixture in one process) | ${f.peakRss.toFixed(0)} MB | — | |`)
  console.log(`| recording through the sweep (PGlite), ${r.shares.toLocaleString('en')} shares | ${r.seconds.toFixed(1)} s, ${r.perCheckMs.toFixed(2)} ms a check → ${scaled.toFixed(0)} s for the round | ≤ ${TARGET_S} s | ${scaled <= TARGET_S ? 'ok' : 'OVER'} |`)
  console.log(`| the whole round on one host alone (starts ${f.intervalMs} ms apart) | ≥ ${oneHostS.toFixed(0)} s | ≤ ${TARGET_S} s | ${oneHostS <= TARGET_S ? 'ok' : 'OVER'} |`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printLinkCheck(await benchLinkCheck())
  process.exit(0)
}
