import { eq, or, sql } from 'drizzle-orm'
import type { Database, Tx } from '../../db/client.ts'
import { users } from '../../db/schema.ts'

type Db = Database | Tx

/** Login accepts a user name, an email or a phone (DESIGN §3 Accounts). */
export async function findUserByLogin(db: Db, login: string) {
  const value = login.trim().toLowerCase()
  const [row] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.userName}) = ${value}`, sql`lower(${users.email}) = ${value}`, eq(users.phone, value)))
    .limit(1)
  return row ?? null
}

export async function findUserByEmailOrPhone(db: Db, target: { email?: string; phone?: string }) {
  const where = target.email ? sql`lower(${users.email}) = ${target.email.toLowerCase()}` : eq(users.phone, target.phone ?? '')
  const [row] = await db.select().from(users).where(where).limit(1)
  return row ?? null
}

export async function findUserById(db: Db, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row ?? null
}

/** Which of name / email / phone another account already uses. */
export async function takenFields(db: Db, f: { userName?: string; email?: string | null; phone?: string | null }, exceptId?: number) {
  const taken: { userName?: true; email?: true; phone?: true } = {}
  const check = async (where: ReturnType<typeof sql>) => {
    const [row] = await db.select({ id: users.id }).from(users).where(where).limit(1)
    return row && row.id !== exceptId
  }
  if (f.userName && (await check(sql`lower(${users.userName}) = ${f.userName.toLowerCase()}`))) taken.userName = true
  if (f.email && (await check(sql`lower(${users.email}) = ${f.email.toLowerCase()}`))) taken.email = true
  if (f.phone && (await check(eq(users.phone, f.phone)))) taken.phone = true
  return taken
}

/** A unique violation from either driver (pg error code 23505), with the constraint name. */
export function uniqueViolation(e: unknown): string | null {
  let err = e as { code?: string; constraint?: string; cause?: unknown } | undefined
  for (let i = 0; err && i < 3; i++) {
    if (err.code === '23505') return err.constraint ?? 'unique'
    err = err.cause as typeof err
  }
  return null
}
