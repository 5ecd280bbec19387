import type { LoginMethod } from '#contract/oauth.ts'
import { and, count, desc, eq, gte, ilike, lt, or, sql } from 'drizzle-orm'
import { addDays, dayStart } from '#contract/days.ts'
import type { Database, Tx } from '../../db/client.ts'
import { loginRecords, users } from '../../db/schema/index.ts'
import { containing } from '../../db/search.ts'
import { type PageQuery, readPage } from '../../db/paging.ts'

type Db = Database | Tx
export type UserRow = typeof users.$inferSelect

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

/** The account's row, locked until the transaction ends (an admin's change reads what it replaces). */
export async function lockUser(db: Db, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update')
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

export async function insertUser(db: Db, row: { userName: string; email: string | null; phone: string | null; passwordHash: string | null }) {
  const [inserted] = await db.insert(users).values(row).returning()
  return inserted!
}

export async function updateUser(
  db: Db,
  id: number,
  set: Partial<
    Pick<UserRow, 'userName' | 'profile' | 'role' | 'isBanned' | 'status' | 'email' | 'phone' | 'alipayRealName' | 'alipayAccount' | 'passwordHash'>
  >,
) {
  const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning()
  return row ?? null
}

/** Keeps the first agreement time. */
export async function markTermsAgreed(db: Db, id: number) {
  const [row] = await db
    .update(users)
    .set({ termsAgreedAt: sql`coalesce(${users.termsAgreedAt}, now())` })
    .where(eq(users.id, id))
    .returning()
  return row!
}

export async function listUsers(db: Db, q: PageQuery & { keyword?: string; role?: UserRow['role']; is_banned?: number }) {
  const where = and(
    q.keyword
      ? or(ilike(users.userName, containing(q.keyword)), ilike(users.email, containing(q.keyword)), ilike(users.phone, containing(q.keyword)))
      : undefined,
    q.role ? eq(users.role, q.role) : undefined,
    q.is_banned !== undefined ? eq(users.isBanned, q.is_banned) : undefined,
  )
  return readPage(q, db.select().from(users).where(where).orderBy(desc(users.id)), db.select({ n: count() }).from(users).where(where))
}

// ---- login records ----

/** A successful login: its record (SPEC §3 Login record) and the account's last login. */
export async function recordLogin(db: Db, user: UserRow, login: { browser: string; device: string; ip: string; at: Date; method?: LoginMethod }) {
  await db.insert(loginRecords).values({ userId: user.id, email: user.email, userName: user.userName, browser: login.browser, device: login.device, ip: login.ip, method: login.method ?? 'password' })
  await db.update(users).set({ lastLoginIp: login.ip, lastLoginTime: login.at }).where(eq(users.id, user.id))
}

export async function listLoginRecords(db: Db, q: PageQuery & { keyword?: string; ip?: string; from?: string; to?: string }, userId?: number) {
  const where = and(
    userId ? eq(loginRecords.userId, userId) : undefined,
    q.ip ? eq(loginRecords.ip, q.ip) : undefined,
    q.from ? gte(loginRecords.createdAt, dayStart(q.from)) : undefined,
    q.to ? lt(loginRecords.createdAt, dayStart(addDays(q.to, 1))) : undefined,
    q.keyword
      ? or(ilike(loginRecords.userName, containing(q.keyword)), ilike(loginRecords.email, containing(q.keyword)), ilike(loginRecords.ip, containing(q.keyword)))
      : undefined,
  )
  // A keyword's matches are found by the trigram indexes first and then sorted (MATERIALIZED keeps the
  // two steps apart): the planner, guessing hundreds of matches, walked the records newest first through
  // the filter, every record for a rare keyword (decision 098).
  const rows = ({ limit, offset }: { limit: number; offset: number }) =>
    q.keyword
      ? db
          .select()
          .from(loginRecords)
          .where(
            sql`${loginRecords.id} in (with m as materialized (${db.select({ id: loginRecords.id }).from(loginRecords).where(where)})
            select id from m order by id desc limit ${limit} offset ${offset})`,
          )
          .orderBy(desc(loginRecords.id))
      : db.select().from(loginRecords).where(where).orderBy(desc(loginRecords.id)).limit(limit).offset(offset)
  return readPage(q, rows, db.select({ n: count() }).from(loginRecords).where(where))
}
