// `npm run cluster` (issue 22): the topology of docker-compose.yml on this machine — two APIs and two
// consoles on loopback behind nginx, rendered from the same deploy/nginx.conf template, on a fresh
// PostgreSQL database and the local Redis. Prints the URL and the instances (also written to
// data/cluster/instances.json); Ctrl-C or SIGTERM stops everything it started. `startCluster` is what
// `npm run test:cluster` (tests/cluster/run.mjs) drives: it kills and restarts instances by name.
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The runner's settings from the environment (README: Cluster). */
export function clusterSettings(env = process.env) {
  const webPort = Number(env.CLUSTER_PORT ?? 8080)
  const apiPort = Number(env.CLUSTER_API_PORT ?? 8081)
  const instancePort = Number(env.CLUSTER_INSTANCE_PORT ?? webPort + 10)
  return {
    webPort,
    apiPort,
    instancePort,
    // Set: used as it is. Unset: a database of its own on the local server, dropped and created afresh.
    databaseUrl: env.CLUSTER_DATABASE_URL,
    databaseName: env.CLUSTER_DATABASE_NAME ?? 'payshare_cluster',
    postgresUrl: env.CLUSTER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    dir: path.resolve(root, env.CLUSTER_DIR ?? 'data/cluster'),
    nginx: env.NGINX,
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** nginx on PATH or in /usr/sbin; else installed from Debian when this is root on a Debian-like system. */
function findNginx(explicit, log) {
  const look = () => {
    if (explicit) return fs.existsSync(explicit) ? explicit : null
    for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin']) {
      const p = path.join(dir || '.', 'nginx')
      if (fs.existsSync(p)) return p
    }
    return null
  }
  let found = look()
  if (found) return found
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
  if (!explicit && hasApt && process.getuid?.() === 0) {
    log('nginx is missing: installing it from Debian (apt-get install -y nginx)…')
    // RUNLEVEL=1: the package must not start a system nginx of its own on port 80.
    const r = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' } })
    if (r.status === 0) found = look()
  }
  if (found) return found
  throw new Error(
    explicit
      ? `NGINX=${explicit} does not exist.`
      : 'nginx is not installed. Install it (Debian/Ubuntu: `sudo apt-get install -y nginx`; Alpine: `apk add nginx`; macOS: `brew install nginx`) or point NGINX=/path/to/nginx at one, then run `npm run cluster` again.',
  )
}

/** Renders deploy/nginx.conf: each ${NAME} given in `vars` is replaced (envsubst, as nginx's image does). */
export function renderNginxTemplate(vars, template = fs.readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8')) {
  const out = template.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole))
  const left = out.match(/\$\{NGINX_[A-Z0-9_]+\}/)
  if (left) throw new Error(`deploy/nginx.conf: ${left[0]} has no value`)
  return out
}

async function freshDatabase(s, log) {
  if (s.databaseUrl) return s.databaseUrl
  if (!/^[a-z_][a-z0-9_]*$/.test(s.databaseName)) throw new Error(`CLUSTER_DATABASE_NAME must be a plain lower-case name: ${s.databaseName}`)
  const c = new pg.Client({ connectionString: s.postgresUrl })
  try {
    await c.connect()
  } catch (e) {
    throw new Error(`PostgreSQL does not answer at ${s.postgresUrl} (${e.message}): start it, or set CLUSTER_DATABASE_URL / CLUSTER_POSTGRES_URL`)
  }
  try {
    await c.query(`DROP DATABASE IF EXISTS ${s.databaseName} WITH (FORCE)`)
    await c.query(`CREATE DATABASE ${s.databaseName}`)
  } finally {
    await c.end()
  }
  const url = new URL(s.postgresUrl)
  url.pathname = `/${s.databaseName}`
  log(`fresh database ${s.databaseName} on ${url.host}`)
  return url.toString()
}

async function checkRedis(url) {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null })
  r.on('error', () => {})
  try {
    await r.connect()
    await r.ping()
  } catch (e) {
    throw new Error(`Redis does not answer at ${url} (${e.message}): start it or set REDIS_URL`)
  } finally {
    r.disconnect()
  }
}

async function waitFor(url, ok, timeoutMs, alive = () => true) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!alive()) return false
    try {
      const r = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(3000) })
      await r.arrayBuffer().catch(() => {})
      if (ok(r.status)) return true
    } catch {}
    await sleep(100)
  }
  return false
}

/**
 * Starts the cluster; resolves once every instance and nginx answer. `opts.log` prints progress,
 * `opts.env` adds settings for every instance (the test: SETTLEMENT_DELAY_HOURS=0).
 */
export async function startCluster(opts = {}) {
  const t0 = performance.now()
  const log = opts.log ?? ((line) => console.log(`  ${line}`))
  const s = clusterSettings(opts.settingsEnv ?? process.env)
  const nginxBin = findNginx(s.nginx, log)

  // The same build `npm start` runs, built when missing or older than the sources.
  fs.mkdirSync(path.join(s.dir, 'logs'), { recursive: true })
  const buildLog = path.join(s.dir, 'logs', 'build.log')
  const out = fs.openSync(buildLog, 'w')
  const build = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, BUILD_ONLY: '1' } })
  fs.closeSync(out)
  if (build.status !== 0) throw new Error(`the build failed (${buildLog})`)
  if (fs.statSync(buildLog).size > 0) log(`built the API and the console (${path.relative(root, buildLog)})`)

  await checkRedis(s.redisUrl)
  const databaseUrl = await freshDatabase(s, log)

  const runDir = path.join(s.dir, 'nginx')
  const logDir = path.join(s.dir, 'logs')
  for (const d of [s.dir, logDir, runDir]) fs.mkdirSync(d, { recursive: true })
  // nginx's workers run as `nobody` when it is started by root: its temporary files must be writable.
  for (const d of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(runDir, d), { recursive: true, mode: 0o777 })
  fs.chmodSync(runDir, 0o777)

  const secret = (name, make) => process.env[name] || make()
  const adminPassword = process.env.ADMIN_PASSWORD || `Adm-${crypto.randomBytes(9).toString('base64url')}`
  const webUrl = `http://localhost:${s.webPort}`
  const apiPublicUrl = `http://127.0.0.1:${s.apiPort}`
  // What every instance shares — as docker-compose.yml's x-api / x-web anchors.
  const shared = {
    NODE_ENV: 'production',
    TZ: process.env.TZ ?? 'Asia/Shanghai',
    DATA_DIR: s.dir,
    SESSION_SECRET: secret('SESSION_SECRET', () => crypto.randomBytes(32).toString('base64url')),
  }
  const apiEnv = {
    ...shared,
    DATABASE_URL: databaseUrl,
    REDIS_URL: s.redisUrl,
    CONTENT_KEY: secret('CONTENT_KEY', () => crypto.randomBytes(32).toString('base64')),
    CODE_PEPPER: secret('CODE_PEPPER', () => crypto.randomBytes(32).toString('base64url')),
    ADMIN_PASSWORD: adminPassword,
    API_HOST: '127.0.0.1',
    API_PUBLIC_URL: process.env.API_PUBLIC_URL ?? apiPublicUrl,
    WEB_URL: process.env.WEB_URL ?? webUrl,
    // The local try-out, like `npm start`: the sandbox gateway and consent page unless credentials are set.
    PAYMENTS_SANDBOX: process.env.PAYMENTS_SANDBOX ?? 'true',
    OAUTH_SANDBOX: process.env.OAUTH_SANDBOX ?? 'true',
    // nginx and the consoles are on loopback: their X-Forwarded-For is believed (decision 106).
    TRUST_PROXY: 'loopback',
  }
  const webEnv = {
    ...shared,
    HOST: '127.0.0.1',
    // Through nginx, as in docker-compose.yml: any console reaches any API, and a lost API is retried.
    API_URL: `http://127.0.0.1:${s.apiPort}`,
    TRUST_PROXY: '1',
    // Two consoles on one machine are already the topology's processes: each runs one (decision 141's
    // one-per-core is for a console alone on its machine or container).
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
  }

  const names = [
    { name: 'api1', kind: 'api', port: s.instancePort + 2 },
    { name: 'api2', kind: 'api', port: s.instancePort + 3 },
    { name: 'web1', kind: 'web', port: s.instancePort },
    { name: 'web2', kind: 'web', port: s.instancePort + 1 },
  ]
  // max_fails=0: an instance is never left out; a request finding it down (refused at once on loopback)
  // goes to the next. Leaving it out for a while made a rolling restart faster than that while fail
  // every request: the instance just started was still left out when the next one stopped (decision 135).
  const server = (p) => `server 127.0.0.1:${p} max_fails=0;`
  const conf = renderNginxTemplate({
    NGINX_WEB_PORT: s.webPort,
    NGINX_API_PORT: s.apiPort,
    NGINX_CONSOLES: names.filter((n) => n.kind === 'web').map((n) => server(n.port)).join(' '),
    NGINX_APIS: names.filter((n) => n.kind === 'api').map((n) => server(n.port)).join(' '),
    NGINX_RUN_DIR: runDir,
    NGINX_ACCESS_LOG: path.join(logDir, 'nginx-5xx.log'),
  })
  const confFile = path.join(runDir, 'nginx.conf')
  fs.writeFileSync(confFile, conf)
  const nginxArgs = ['-e', 'stderr', '-p', runDir, '-c', confFile]
  const tested = spawnSync(nginxBin, ['-t', '-q', ...nginxArgs], { encoding: 'utf8' })
  if (tested.status !== 0) throw new Error(`nginx refuses ${confFile}:\n${tested.stderr}`)

  const instances = new Map()
  let stopping = false
  const onExit = opts.onExit ?? ((i, code, signal) => log(`${i.name} (pid ${i.pid}) exited (${signal ?? code}); see ${i.logFile}`))

  const launch = (name) => {
    const i = instances.get(name)
    const out = fs.openSync(i.logFile, 'a')
    const args = i.kind === 'api' ? ['--enable-source-maps', 'server/dist/main.js'] : i.kind === 'web' ? ['web-server.mjs'] : null
    const env = i.kind === 'api' ? { ...process.env, ...apiEnv, ...opts.env, API_PORT: String(i.port) } : { ...process.env, ...webEnv, ...opts.env, PORT: String(i.port) }
    const proc = i.kind === 'nginx' ? spawn(nginxBin, [...nginxArgs, '-g', 'daemon off;'], { stdio: ['ignore', out, out] }) : spawn(process.execPath, args, { cwd: root, stdio: ['ignore', out, out], env })
    fs.closeSync(out)
    i.proc = proc
    i.pid = proc.pid
    i.exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })))
    i.exited.then(({ code, signal }) => {
      if (i.proc === proc && !stopping && !i.expectExit) onExit(i, code, signal)
    })
    return i
  }
  for (const n of [...names, { name: 'nginx', kind: 'nginx', port: s.webPort }]) instances.set(n.name, { ...n, logFile: path.join(logDir, `${n.name}.log`) })

  const readyUrl = (i) => (i.kind === 'api' ? `http://127.0.0.1:${i.port}/api/health` : `http://127.0.0.1:${i.port}/login`)
  const readyStatus = (i) => (i.kind === 'api' ? (st) => st === 200 : (st) => st < 500)
  /** Resolves once the instance answers on its own port (false: it exited or timed out). */
  const waitReady = (name, timeoutMs = 120_000) => {
    const i = instances.get(name)
    const proc = i.proc
    return waitFor(readyUrl(i), readyStatus(i), timeoutMs, () => proc.exitCode === null && proc.signalCode === null)
  }

  const stop = async () => {
    stopping = true
    const running = [...instances.values()].filter((i) => i.proc && i.proc.exitCode === null && i.proc.signalCode === null)
    for (const i of running) i.proc.kill('SIGTERM')
    await Promise.all(
      running.map(async (i) => {
        const killer = setTimeout(() => i.proc.kill('SIGKILL'), 12_000)
        await i.exited
        clearTimeout(killer)
      }),
    )
  }

  try {
    // All four at once on the empty database: the start lock lets one migrate and seed (decision 133).
    for (const n of names) launch(n.name)
    launch('nginx')
    const ready = await Promise.all(names.map((n) => waitReady(n.name, Number(process.env.API_START_TIMEOUT ?? 180) * 1000)))
    const failed = names.filter((_, k) => !ready[k]).map((n) => `${n.name} (${instances.get(n.name).logFile})`)
    if (failed.length) throw new Error(`did not start: ${failed.join(', ')}`)
    const front = (await waitFor(`http://127.0.0.1:${s.webPort}/login`, (st) => st < 500, 20_000)) && (await waitFor(`${apiPublicUrl}/api/health`, (st) => st === 200, 20_000))
    if (!front) throw new Error(`nginx does not answer on ${s.webPort}/${s.apiPort} (${instances.get('nginx').logFile})`)
  } catch (e) {
    await stop()
    throw e
  }
  const readyMs = performance.now() - t0

  const table = () => [...instances.values()].map((i) => ({ name: i.name, kind: i.kind, port: i.port, pid: i.pid, log: path.relative(root, i.logFile) }))
  const write = () =>
    fs.writeFileSync(
      path.join(s.dir, 'instances.json'),
      JSON.stringify({ url: webUrl, apiUrl: apiPublicUrl, database: databaseUrl.replace(/\/\/[^@/]*@/, '//'), startedAt: new Date().toISOString(), readyMs: Math.round(readyMs), instances: table() }, null, 2) + '\n',
    )
  write()

  return {
    url: webUrl,
    webUrl: `http://127.0.0.1:${s.webPort}`,
    apiUrl: apiPublicUrl,
    databaseUrl,
    adminPassword,
    readyMs,
    dir: s.dir,
    table,
    /**
     * Sends `signal` to an instance; resolves when it has exited. With `timeoutMs`, one still running
     * then is killed (SIGKILL) and the answer says `killed`.
     */
    async kill(name, signal = 'SIGTERM', timeoutMs) {
      const i = instances.get(name)
      i.expectExit = true
      i.proc.kill(signal)
      let killed = false
      const killer = timeoutMs
        ? setTimeout(() => {
            killed = true
            i.proc.kill('SIGKILL')
          }, timeoutMs)
        : null
      const exited = await i.exited
      if (killer) clearTimeout(killer)
      return { ...exited, killed }
    },
    /** Starts an instance again on its port (after `kill`); resolves once it answers. */
    async start(name) {
      const i = launch(name)
      i.expectExit = false
      const ok = await waitReady(name)
      write()
      if (!ok) throw new Error(`${name} did not start again (${i.logFile})`)
      return i.pid
    },
    stop,
  }
}

/**
 * Calls `stop` on SIGINT or SIGTERM, and when the parent goes away: `npm run` starts this through a
 * shell, and a SIGTERM to npm reaches that shell, not this process, which would be left running.
 */
export function stopOnSignals(stop) {
  let done = false
  const once = () => {
    if (done) return
    done = true
    stop()
  }
  process.on('SIGINT', once)
  process.on('SIGTERM', once)
  const parent = process.ppid
  setInterval(() => process.ppid !== parent && once(), 1000).unref()
}

function printTable(rows) {
  const w = { name: 6, kind: 6, port: 6, pid: 8 }
  console.log(`  ${'name'.padEnd(w.name)} ${'kind'.padEnd(w.kind)} ${'port'.padEnd(w.port)} ${'pid'.padEnd(w.pid)} log`)
  for (const r of rows) console.log(`  ${r.name.padEnd(w.name)} ${r.kind.padEnd(w.kind)} ${String(r.port).padEnd(w.port)} ${String(r.pid).padEnd(w.pid)} ${r.log}`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log('Starting the cluster (two APIs, two consoles, nginx)…')
  let cluster
  let done = false
  const shutdown = async () => {
    if (done) return
    done = true
    console.log('\nStopping the cluster…')
    // Still starting: stopped as soon as it is up (below).
    if (!cluster) return
    await cluster.stop()
    process.exit(0)
  }
  stopOnSignals(shutdown)
  try {
    cluster = await startCluster()
  } catch (e) {
    console.error(`\nnpm run cluster: ${e instanceof Error ? e.message : e}`)
    process.exit(1)
  }
  if (done) {
    await cluster.stop()
    process.exit(0)
  }
  console.log(`\n  PayShare cluster is running: ${cluster.url}  (ready in ${(cluster.readyMs / 1000).toFixed(1)} s)`)
  console.log(`  APIs' public side (payment notifies, sandbox checkout): ${cluster.apiUrl}`)
  console.log(`  admin password: ${cluster.adminPassword}${process.env.ADMIN_PASSWORD ? ' (ADMIN_PASSWORD)' : ''}\n`)
  printTable(cluster.table())
  console.log(`\n  (also in ${path.relative(root, path.join(cluster.dir, 'instances.json'))}; Ctrl-C stops everything)\n`)
}
