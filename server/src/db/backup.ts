// `npm run db:backup [FILE]` and `npm run db:restore FILE [--force]` (issue 22, decision 139).
//
// Embedded database (no DATABASE_URL): the backup is PGlite's own dump of the data dir (a .tar.gz), taken
// with the API stopped — PGlite is one process's at a time, and the owner file (server/src/db/client.ts)
// refuses the backup while an API holds the data dir. The restore loads that dump into an empty data dir
// (a non-empty one is moved aside with --force, never deleted).
// PostgreSQL (DATABASE_URL): pg_dump -Fc while the APIs run (a consistent snapshot by PostgreSQL's own
// transaction), pg_restore into an empty database (--force: --clean over an existing one).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { loadConfig } from '../config.ts'
import { openDatabase, pgliteOwner } from './client.ts'

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')

async function backupPglite(dataDir: string, file: string) {
  const owner = pgliteOwner(dataDir)
  if (owner) fail(`The API (pid ${owner}) holds ${dataDir}: stop it first (the embedded database is one process's at a time).`)
  if (!fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) fail(`No embedded database in ${dataDir} (DATA_DIR).`)
  const handle = await openDatabase({ dataDir })
  try {
    const dump = await handle.dump!('gzip')
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  } finally {
    await handle.close()
  }
  console.log(`Backed up ${dataDir}/pglite to ${file} (${fs.statSync(file).size} bytes).`)
}

async function restorePglite(dataDir: string, file: string, force: boolean) {
  const owner = pgliteOwner(dataDir)
  if (owner) fail(`The API (pid ${owner}) holds ${dataDir}: stop it first.`)
  const dir = path.join(dataDir, 'pglite')
  if (fs.existsSync(dir) && fs.readdirSync(dir).length) {
    if (!force) fail(`${dir} is not empty: restore into a fresh DATA_DIR, or pass --force to move the current database aside.`)
    const aside = `${dir}.replaced-${stamp()}`
    fs.renameSync(dir, aside)
    console.log(`Moved the current database aside to ${aside}.`)
  }
  const blob = new Blob([fs.readFileSync(file)], { type: 'application/x-gzip' })
  const handle = await openDatabase({ dataDir, loadDataDir: blob })
  try {
    // Opened and read: the dump was whole.
    await handle.db.execute(sql`SELECT count(*) FROM pg_class`)
  } finally {
    await handle.close()
  }
  console.log(`Restored ${file} into ${dir}.`)
}

function run(command: string, args: string[]) {
  const r = spawnSync(command, args, { stdio: 'inherit' })
  if (r.error) fail(`${command}: ${r.error.message} (install the PostgreSQL client tools, e.g. apt-get install postgresql-client)`)
  if (r.status !== 0) fail(`${command} failed (exit ${r.status}).`)
}

async function restorePostgres(url: string, file: string, force: boolean) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`)
  await client.end()
  if (Number(rows[0]!.n) > 0 && !force) fail('The database of DATABASE_URL has tables: restore into an empty database, or pass --force (pg_restore --clean).')
  run('pg_restore', ['--no-owner', '--exit-on-error', ...(force ? ['--clean', '--if-exists'] : []), '-d', url, file])
  console.log(`Restored ${file} into the database of DATABASE_URL.`)
}

const [command, ...rest] = process.argv.slice(2)
const force = rest.includes('--force')
const file = rest.find((a) => !a.startsWith('--'))
const config = loadConfig()
if (command === 'backup') {
  const target = file ?? path.join('backups', `payshare-${stamp()}.${config.databaseUrl ? 'dump' : 'tar.gz'}`)
  if (config.databaseUrl) {
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true })
    run('pg_dump', ['-Fc', '--no-owner', '-f', target, config.databaseUrl])
    console.log(`Backed up the database of DATABASE_URL to ${target}.`)
  } else await backupPglite(config.dataDir, target)
  if (!process.env.CONTENT_KEY) console.log(`Keep ${path.join(config.dataDir, 'secrets.json')} too (or set CONTENT_KEY): share contents are encrypted with its content key.`)
} else if (command === 'restore') {
  if (!file) fail('Usage: npm run db:restore FILE [--force]')
  if (!fs.existsSync(file)) fail(`No such file: ${file}`)
  if (config.databaseUrl) await restorePostgres(config.databaseUrl, file, force)
  else await restorePglite(config.dataDir, file, force)
} else fail('Usage: npm run db:backup [FILE] | npm run db:restore FILE [--force]')
