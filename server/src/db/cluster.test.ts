// Several API instances on one database (issue 22): the start lock (migrations + first-start seed run
// once when instances start at once) and the minute sweeps claimed once per minute across instances.
// The PostgreSQL half runs when TEST_DATABASE_URL is set (.ci/run sets it when PostgreSQL answers).
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onServer, openTestDatabase } from '../../test/helpers.ts'
import { migrationsFolder, openDatabase, type DbHandle } from './client.ts'
import { seed } from './seed.ts'
import { claimMinute } from './sweeps.ts'

const minuteOf = (n: number) => new Date(n * 60_000 + 17_000)

describe('claimMinute', () => {
  it('gives each minute to the first claim only, and never a minute already passed', async () => {
    const t = await openTestDatabase()
    try {
      const m = 29_000_000
      expect(await claimMinute(t.db, 'minute', minuteOf(m))).toBe(true)
      expect(await claimMinute(t.db, 'minute', new Date(minuteOf(m).getTime() + 30_000))).toBe(false)
      expect(await claimMinute(t.db, 'other', minuteOf(m))).toBe(true)
      expect(await claimMinute(t.db, 'minute', minuteOf(m + 1))).toBe(true)
      expect(await claimMinute(t.db, 'minute', minuteOf(m - 5))).toBe(false)
    } finally {
      await t.close()
    }
  })
})

const serverUrl = process.env.TEST_DATABASE_URL
if (!serverUrl) console.log('\n  NOT RUN: the start lock across instances needs TEST_DATABASE_URL (PostgreSQL)\n')

const admin = (statement: string) => onServer(serverUrl!, statement)

describe.skipIf(!serverUrl)('four instances on one empty PostgreSQL database', () => {
  const name = `payshare_cluster_${crypto.randomBytes(5).toString('hex')}`
  const handles: DbHandle[] = []
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`)
    const url = new URL(serverUrl!)
    url.pathname = `/${name}`
    for (let i = 0; i < 4; i++) handles.push(await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' }))
  })
  afterAll(async () => {
    for (const h of handles) await h.close()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it('migrate and seed once, one after the other, when they start at once', async () => {
    const spans: { start: number; end: number }[] = []
    const results = await Promise.all(
      handles.map((h) =>
        h.exclusive(async () => {
          const start = performance.now()
          await h.migrate()
          const r = await seed(h.db, { adminPassword: 'Admin@2026', demo: false })
          spans.push({ start, end: performance.now() })
          return r
        }),
      ),
    )
    // Without the lock two of them create drizzle's table or the admin side by side and one fails.
    expect(results.filter((r) => r.adminCreated)).toHaveLength(1)
    spans.sort((a, b) => a.start - b.start)
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end)
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
    const applied = await handles[0]!.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)
    expect((applied as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(journal.entries.length)
    const admins = await handles[0]!.db.execute(sql`SELECT count(*)::int AS n FROM users WHERE user_name = 'admin'`)
    expect((admins as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1)
    // A newer (or another) instance starting beside running ones: nothing left to apply, nothing fails.
    await handles[1]!.exclusive(() => handles[1]!.migrate())
  }, 60_000)

  it('give each minute to exactly one instance when all four tick in it', async () => {
    const start = 29_100_000
    for (let m = start; m < start + 10; m++) {
      const won = await Promise.all(handles.map((h, i) => claimMinute(h.db, 'minute', new Date(minuteOf(m).getTime() + i * 1000))))
      expect(won.filter(Boolean)).toHaveLength(1)
    }
  })
})
