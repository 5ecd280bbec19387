import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { appMeta, users } from './schema.ts'
import { hashPassword } from '../domain/auth/passwords.ts'

export const DEMO_PASSWORD = 'Demo@2026'
export const DEMO_SELLER = { userName: 'demo_seller', email: 'seller@payshare.local', phone: '13800138000' }
export const DEMO_BUYER = { userName: 'demo_buyer', email: 'buyer@payshare.local' }

export type SeedResult = { adminCreated: boolean; adminPassword?: string; demo: boolean }

/** Seed steps run once each, remembered in app_meta. Later capabilities append their own steps. */
export async function seed(db: Database, opts: { adminPassword?: string; demo: boolean }): Promise<SeedResult> {
  const result: SeedResult = { adminCreated: false, demo: false }
  const [admin] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.userName}) = 'admin'`).limit(1)
  if (!admin) {
    const password = opts.adminPassword ?? generatedPassword()
    await db.insert(users).values({ userName: 'admin', email: 'admin@payshare.local', role: 'admin', passwordHash: await hashPassword(password) })
    result.adminCreated = true
    // Printed once by the caller; never stored in clear.
    if (!opts.adminPassword) result.adminPassword = password
  } else if (opts.adminPassword) {
    // ADMIN_PASSWORD set: it is the admin's password (changeable later through settings when unset).
    await db.update(users).set({ passwordHash: await hashPassword(opts.adminPassword) }).where(eq(users.id, admin.id))
  }
  if (opts.demo && (await once(db, 'seed.demo-users'))) {
    const passwordHash = await hashPassword(DEMO_PASSWORD)
    await db
      .insert(users)
      .values([
        { ...DEMO_SELLER, passwordHash, profile: '演示卖家 / demo seller', termsAgreedAt: new Date(), alipayRealName: '张三', alipayAccount: DEMO_SELLER.phone },
        { ...DEMO_BUYER, passwordHash, profile: '' },
      ])
      .onConflictDoNothing()
    result.demo = true
  }
  return result
}

/** True the first time a step key is seen (and records it). */
export async function once(db: Database, key: string): Promise<boolean> {
  const rows = await db.insert(appMeta).values({ key, value: new Date().toISOString() }).onConflictDoNothing().returning()
  return rows.length > 0
}

/** A password that satisfies SPEC §5 (upper, lower, digit, special). */
function generatedPassword(): string {
  const base = crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')
  return `Ps-${base}9a`
}
