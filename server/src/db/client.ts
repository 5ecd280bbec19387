import fs from 'node:fs'
import path from 'node:path'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { projectRoot } from '../config.ts'
import * as schema from './schema/index.ts'

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]
export type DbHandle = {
  db: Database
  driver: 'pglite' | 'pg'
  close: () => Promise<void>
  migrate: () => Promise<void>
  /**
   * Runs `work` while holding the database's start lock: on PostgreSQL a session advisory lock, so that
   * instances starting at once apply the migrations and the first-start seed one after the other, never
   * side by side (decision 133); PGlite has one process, nothing to wait for.
   */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>
  /** PGlite only: the whole database as a tarball (see `loadDataDir`). */
  dump?: (compression?: 'none' | 'gzip') => Promise<Blob>
}

/**
 * A file-backed PGlite database is one process's at a time (two writers would corrupt it): the process
 * that opens it writes its pid here and removes it on close; another live process is refused (decision
 * 139; `npm run db:backup` / `db:restore` read it too). A pid left by a crash is ignored.
 */
const ownerFile = (dataDir: string) => path.join(dataDir, 'pglite.owner')

/** The live process (not this one) that holds the data dir's PGlite database, if any. */
export function pgliteOwner(dataDir: string): number | null {
  let pid: number
  try {
    pid = Number(fs.readFileSync(ownerFile(dataDir), 'utf8').trim())
  } catch {
    return null
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}

/** The advisory lock key of migrations + first-start seed (any 64-bit number no other code uses). */
export const START_LOCK_KEY = 0x7061_7973_6801n

export const migrationsFolder = () => path.join(projectRoot(), 'server', 'drizzle')

/**
 * PostgreSQL when a URL is given, else embedded PGlite: file-backed under `dataDir/pglite`, or in memory
 * when `dataDir` is `memory://` (tests). One schema, one migration set for both (DESIGN §2).
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; loadDataDir?: Blob }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.PG_POOL_MAX ?? 10) })
    // An idle connection dropped by the server (restart, failover, admin) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => console.error(`PostgreSQL idle connection error: ${err.message}`))
    const db = drizzlePg(pool, { schema }) as unknown as Database
    return {
      db,
      driver: 'pg',
      close: () => pool.end(),
      migrate: () => migratePg(db as never, { migrationsFolder: migrationsFolder() }),
      exclusive: async (work) => {
        // Its own connection holds the lock (a session lock belongs to one connection); the work runs on
        // the pool. A process killed meanwhile loses its connection, and the server frees the lock.
        const lock = await pool.connect()
        try {
          await lock.query('SELECT pg_advisory_lock($1)', [START_LOCK_KEY.toString()])
          try {
            return await work()
          } finally {
            await lock.query('SELECT pg_advisory_unlock($1)', [START_LOCK_KEY.toString()])
          }
        } finally {
          lock.release()
        }
      },
    }
  }
  let client: PGlite
  // pg_trgm on every open, not only the first: the trigram indexes of migration 0009 need its functions
  // for any write to their tables (decision 098).
  const options: PGliteOptions = { extensions: { pg_trgm } }
  // `loadDataDir`: an in-memory database started from a dump (tests start from one migrated template).
  let release = () => {}
  if (opts.dataDir === 'memory://') client = new PGlite({ ...options, loadDataDir: opts.loadDataDir })
  else {
    const owner = pgliteOwner(opts.dataDir)
    if (owner) throw new Error(`The database in ${opts.dataDir} is open in another process (pid ${owner}): stop it first (PGlite is one process's at a time).`)
    const dir = path.join(opts.dataDir, 'pglite')
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(ownerFile(opts.dataDir), String(process.pid))
    release = () => fs.rmSync(ownerFile(opts.dataDir), { force: true })
    // `loadDataDir` here: a restore (server/src/db/backup.ts) into an empty directory.
    client = new PGlite(dir, { ...options, loadDataDir: opts.loadDataDir })
  }
  await client.waitReady
  const db = drizzlePglite(client, { schema }) as unknown as Database
  return {
    db,
    driver: 'pglite',
    close: () => client.close().finally(release),
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    exclusive: (work) => work(),
    dump: (compression = 'none') => client.dumpDataDir(compression),
  }
}
