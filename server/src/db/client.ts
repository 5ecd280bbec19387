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
  dump?: () => Promise<Blob>
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
  if (opts.dataDir === 'memory://') client = new PGlite({ ...options, loadDataDir: opts.loadDataDir })
  else {
    const dir = path.join(opts.dataDir, 'pglite')
    fs.mkdirSync(dir, { recursive: true })
    client = new PGlite(dir, options)
  }
  await client.waitReady
  const db = drizzlePglite(client, { schema }) as unknown as Database
  return {
    db,
    driver: 'pglite',
    close: () => client.close(),
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    exclusive: (work) => work(),
    dump: () => client.dumpDataDir('none'),
  }
}
