// API test harness (STYLE: Tests): a fresh database per call — in-memory PGlite, or a throw-away
// database on the PostgreSQL server of DATABASE_URL — migrated, seeded, and an app built on it.
import crypto from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { type BuildOptions, buildApp } from '../src/app.ts'
import type { Config } from '../src/config.ts'
import { type Database, openDatabase } from '../src/db/client.ts'
import { outboxMessages, users, verificationCodes } from '../src/db/schema.ts'
import { hashPassword } from '../src/modules/auth/passwords.ts'
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
    paymentsSandbox: true,
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
  close: () => Promise<void>
  /** Logs in through the API and returns the bearer token (throws unless 200). */
  login: (username: string, password: string) => Promise<string>
  /** Codes "delivered" to the dev outbox, newest first; only those sent to `to` when given. */
  outbox: (to?: string) => Promise<{ to: string; code: string; purpose: string; channel: string }[]>
}

export type TestAppOptions = Pick<BuildOptions, 'providers' | 'limits' | 'payments' | 'clock'> & { config?: Partial<Config> }

/** A fresh database on the DATABASE_URL server, dropped again by the returned `drop`. */
async function scratchPostgres(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `payshare_t_${crypto.randomBytes(6).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** A fresh, migrated, empty database: in-memory PGlite, or a throw-away one on the DATABASE_URL server. */
export async function openTestDatabase() {
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL) : null
  const handle = await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://' })
  await handle.migrate()
  return {
    db: handle.db,
    driver: handle.driver,
    async close() {
      await handle.close()
      await scratch?.drop()
    },
  }
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(opts.config)
  const handle = await openTestDatabase()
  await seed(handle.db, { adminPassword: config.adminPassword, demo: config.seedDemo })
  const app = await buildApp({ config, db: handle.db, providers: opts.providers, limits: opts.limits, payments: opts.payments, clock: opts.clock, logger: false })
  await app.ready()
  const db = handle.db

  return {
    app,
    db,
    driver: handle.driver,
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
