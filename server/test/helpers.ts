// API test harness (STYLE: Tests): a fresh database per call — in-memory PGlite, or a throw-away
// database on the PostgreSQL server of DATABASE_URL — migrated, seeded, and an app built on it.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { type BuildOptions, buildApp } from '../src/app.ts'
import type { Config } from '../src/config.ts'
import { type Database, type DbHandle, migrationsFolder, openDatabase } from '../src/db/client.ts'
import { outboxMessages, users, verificationCodes } from '../src/db/schema/index.ts'
import { hashPassword } from '../src/modules/credentials/passwords.ts'
import { DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER, seed } from '../src/db/seed.ts'
import { uniqueEmail, uniqueName, uniquePhone } from '../src/db/factories.ts'

export const ADMIN_PASSWORD = 'Admin@2026'
export { DEMO_BUYER, DEMO_PASSWORD, DEMO_SELLER }
// The shared data builders (server/src/db/factories.ts), for the tests that import them from here.
export { uniqueEmail, uniqueName, uniquePhone }

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    adminPassword: ADMIN_PASSWORD,
    seedDemo: true,
    mailFrom: 'PayShare <no-reply@payshare.test>',
    webUrl: 'http://localhost:3000',
    apiPublicUrl: 'http://127.0.0.1:4000',
    defaultFeeBp: 500,
    settlementDelayMs: 24 * 3600 * 1000,
    withdrawal: { minFen: 1000, feeBp: 100, feeMinFen: 10 },
    fraudRefundWindowDays: 30,
    // Links are checked on save only where a test asks for it (modules/linkcheck); never against the internet.
    linkCheck: { allowPrivate: false, refundDays: 7, fixHours: 48, hostConcurrency: 20, hostIntervalMs: 0, timeoutMs: 2000, checkOnSave: false },
    paymentsSandbox: true,
    oauth: { sandbox: true, callbackBaseUrl: 'http://localhost:3000' },
    trustProxy: false,
    logLevel: 'silent',
    logRequests: false,
    secrets: { sessionSecret: 'test-session-secret', contentKey: crypto.randomBytes(32).toString('base64'), codePepper: 'test-pepper' },
    ...overrides,
  }
}

export type TestApp = {
  app: FastifyInstance
  db: Database
  driver: 'pglite' | 'pg'
  /** PostgreSQL only: the scratch database's URL, for a second instance on the same data. */
  databaseUrl?: string
  close: () => Promise<void>
  /** Logs in through the API and returns the bearer token (throws unless 200). */
  login: (username: string, password: string) => Promise<string>
  /** Codes "delivered" to the dev outbox, newest first; only those sent to `to` when given. */
  outbox: (to?: string) => Promise<{ to: string; code: string; purpose: string; channel: string }[]>
}

export type TestAppOptions = Pick<BuildOptions, 'providers' | 'limits' | 'payments' | 'oauth' | 'clock' | 'linkResolver'> & { config?: Partial<Config> }

/** Runs one statement on the DATABASE_URL server's own database (CREATE/DROP DATABASE). */
export async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await client.query(statement)
  } finally {
    await client.end()
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

let serverTemplate: Promise<string> | undefined
/**
 * A migrated empty database on the DATABASE_URL server, made once per set of migrations and kept
 * there (`payshare_tpl_<hash>`): every test database is a copy of it, which skips running the
 * migrations in each file (decision 110). Built under another name and renamed once complete, so a
 * concurrent run never copies half of one.
 */
function postgresTemplate(serverUrl: string): Promise<string> {
  serverTemplate ??= (async () => {
    const name = `payshare_tpl_${migrationsHash('postgresql')}`
    const found = await onServer(serverUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`)
    if (found.rowCount) return name
    const building = `${name}_${crypto.randomBytes(4).toString('hex')}`
    await onServer(serverUrl, `CREATE DATABASE ${building}`)
    const handle = await openDatabase({ databaseUrl: databaseUrl(serverUrl, building), dataDir: 'memory://' })
    await handle.migrate()
    await handle.close()
    try {
      await onServer(serverUrl, `ALTER DATABASE ${building} RENAME TO ${name}`)
    } catch {
      // Another run made it meanwhile.
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${building}`)
    }
    return name
  })()
  return serverTemplate
}

/** A fresh database on the DATABASE_URL server (a copy of the template), dropped again by `drop`. */
async function scratchPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `payshare_t_${crypto.randomBytes(6).toString('hex')}`
  await onServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(serverUrl)}`)
  return { url: databaseUrl(serverUrl, name), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined) }
}

/** The migrations (with what else a template depends on) as a short hash: one template per set. */
function migrationsHash(engine: string): string {
  const folder = migrationsFolder()
  const hash = crypto.createHash('sha256').update(engine)
  for (const f of fs.readdirSync(folder).filter((f) => f.endsWith('.sql')).sort()) hash.update(f).update(fs.readFileSync(path.join(folder, f)))
  return hash.digest('hex').slice(0, 16)
}

/** A template is only reused by the PGlite that made it. */
const PGLITE_VERSION = (JSON.parse(fs.readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string }).version

/**
 * A migrated empty PGlite database as a tarball, made once per set of migrations and kept in the temp
 * directory: starting each test file's database from it takes under a second, where creating and
 * migrating one takes about five (most of a small API test file's time).
 */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `payshare-pglite-template-${migrationsHash(PGLITE_VERSION)}.tar`)
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)])
  const handle = await openDatabase({ dataDir: 'memory://' })
  await handle.migrate()
  const blob = await handle.dump!()
  await handle.close()
  // Written aside and renamed, so a concurrent test file never reads half a template.
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()))
  fs.renameSync(tmp, file)
  return blob
}

/**
 * PGlite databases given back by the test files that finished in this worker, emptied: the next file
 * starts from one of them instead of loading the template again (~1–2 s each, a third of the API tests'
 * time; decision 110). The API tests' worker keeps its modules from file to file (vitest.config.ts).
 */
const idlePglite: DbHandle[] = []

/**
 * Empties a database that a test file has finished with, back to what the migrated template holds:
 * every table of the schema truncated, its sequences restarted, the session's settings reset. The
 * migrations insert no rows, so an empty schema is the template. Null when it cannot be reused.
 */
async function emptied(handle: DbHandle): Promise<DbHandle | null> {
  try {
    const listed = await handle.db.execute<{ name: string }>(sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`)
    const tables = (listed as unknown as { rows: { name: string }[] }).rows.map((r) => `"${r.name}"`)
    await handle.db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`))
    await handle.db.execute(sql`DISCARD ALL`)
    return handle
  } catch {
    await handle.close().catch(() => undefined)
    return null
  }
}

export async function openTestDatabase() {
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL) : null
  const handle =
    (!scratch && idlePglite.pop()) || (await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://', loadDataDir: scratch ? undefined : await pgliteTemplate() }))
  // A no-op on the template (its migrations are recorded), the real thing on a scratch PostgreSQL.
  await handle.migrate()
  let closed = false
  return {
    db: handle.db,
    driver: handle.driver,
    databaseUrl: scratch?.url,
    async close() {
      if (closed) return
      closed = true
      if (scratch) {
        await handle.close()
        await scratch.drop()
        return
      }
      const reusable = await emptied(handle)
      if (reusable) idlePglite.push(reusable)
    },
  }
}

/** The app built on each test database, so a fingerprint can first write what the app still buffers. */
const appsByDb = new WeakMap<Database, FastifyInstance>()

/** The API tests' DNS: every name is TEST-NET-1 (192.0.2.1), which the link checker's guard refuses — no test reaches the internet. */
const noInternet = async () => [{ address: '192.0.2.1', family: 4 as const }]

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(opts.config)
  const handle = await openTestDatabase()
  await seed(handle.db, { adminPassword: config.adminPassword, demo: config.seedDemo })
  const app = await buildApp({ config, db: handle.db, providers: opts.providers, limits: opts.limits, payments: opts.payments, oauth: opts.oauth, clock: opts.clock, linkResolver: opts.linkResolver ?? noInternet, logger: false })
  await app.ready()
  const db = handle.db
  appsByDb.set(db, app)

  return {
    app,
    db,
    driver: handle.driver,
    databaseUrl: handle.databaseUrl,
    async close() {
      await app.close()
      await handle.close()
    },
    async login(username, password) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`)
      return (res.json() as { data: { token: string } }).data.token
    },
    async outbox(to) {
      return db
        .select({ to: outboxMessages.to, code: outboxMessages.code, purpose: outboxMessages.purpose, channel: outboxMessages.channel })
        .from(outboxMessages)
        .where(to ? eq(outboxMessages.to, to) : undefined)
        .orderBy(desc(outboxMessages.id))
    },
  }
}

/** Moves a target's codes back in time, standing in for waiting out the 60 s resend gap or a day. */
export async function ageCodes(db: Database, target: string, seconds: number, purpose?: string) {
  await db
    .update(verificationCodes)
    .set({ createdAt: sql`${verificationCodes.createdAt} - make_interval(secs => ${seconds})` })
    .where(and(eq(verificationCodes.target, target), purpose ? eq(verificationCodes.purpose, purpose as 'register') : undefined))
}

let ipCounter = 0
/** A distinct client address per call, so per-IP limits of one test do not leak into another. */
export const freshIp = () => {
  ipCounter++
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/**
 * A fingerprint of every table in the schema, to prove a rejected request changed nothing.
 * Rows are compared whole (as JSON), so an UPDATE shows up as well as an INSERT or DELETE.
 */
export async function dbFingerprint(db: Database): Promise<Record<string, string>> {
  // Share visits are written in batches a second later (share/visits.ts): a visit from an earlier
  // request must not land between two fingerprints and look like the change under test.
  await appsByDb.get(db)?.visits.flush()
  const out: Record<string, string> = {}
  const listed = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )
  const tables = (listed as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)
  for (const table of tables) {
    const rows = await db.execute<{ digest: string | null; n: number }>(
      sql.raw(`select md5(coalesce(string_agg(row_to_json(t)::text, '|' order by row_to_json(t)::text), '')) as digest, count(*)::int as n from "${table}" t`),
    )
    const row = (rows as unknown as { rows: { digest: string; n: number }[] }).rows[0]!
    out[table] = `${row.n}:${row.digest}`
  }
  return out
}

export const USER_PASSWORD = 'User@2026'
const hashes = new Map<string, Promise<string>>()

/** Inserts an account directly (argon2 runs once per distinct password), for tests that need many. */
export async function createUser(
  db: Database,
  fields: { userName?: string; email?: string | null; phone?: string | null; password?: string; role?: 'admin' | 'user' } = {},
) {
  const password = fields.password ?? USER_PASSWORD
  if (!hashes.has(password)) hashes.set(password, hashPassword(password))
  const userName = fields.userName ?? uniqueName()
  const [row] = await db
    .insert(users)
    .values({
      userName,
      email: fields.email === undefined ? uniqueEmail(userName) : fields.email,
      phone: fields.phone ?? null,
      role: fields.role ?? 'user',
      passwordHash: await hashes.get(password)!,
    })
    .returning()
  return { ...row!, password }
}
