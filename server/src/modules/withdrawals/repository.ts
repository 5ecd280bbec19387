import { and, count, desc, eq, gte, ilike, lt, or } from 'drizzle-orm'
import type { z } from 'zod'
import { addDays, dayStart } from '#contract/days.ts'
import type { adminWithdrawalListQuerySchema } from '#contract/withdrawals.ts'
import type { Database } from '../../db/client.ts'
import { users, withdrawals } from '../../db/schema/index.ts'
import { accountNamed, containing } from '../../db/search.ts'
import { readPage } from '../../db/paging.ts'

export type WithdrawalRow = typeof withdrawals.$inferSelect
export type WithdrawalListQuery = Partial<z.output<typeof adminWithdrawalListQuerySchema>> & { pageNum: number; pageSize: number }

/** What a withdrawal request needs to know about its seller (read in the request's transaction). */
export async function findSeller(db: Database, id: number) {
  const [row] = await db
    .select({ userName: users.userName, isBanned: users.isBanned, alipayRealName: users.alipayRealName, alipayAccount: users.alipayAccount })
    .from(users)
    .where(eq(users.id, id))
  return row
}

export async function insertWithdrawal(db: Database, values: typeof withdrawals.$inferInsert): Promise<WithdrawalRow> {
  const [row] = await db.insert(withdrawals).values(values).returning()
  return row!
}

/** The withdrawal row, locked for the rest of the transaction: one admin action at a time. */
export async function lockWithdrawal(tx: Database, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update')
  return row
}

export async function updateWithdrawal(db: Database, id: number, set: Partial<typeof withdrawals.$inferInsert>): Promise<WithdrawalRow> {
  const [row] = await db.update(withdrawals).set(set).where(eq(withdrawals.id, id)).returning()
  return row!
}

export async function findWithdrawal(db: Database, id: number) {
  const [row] = await db.select({ w: withdrawals, userName: users.userName }).from(withdrawals).innerJoin(users, eq(users.id, withdrawals.userId)).where(eq(withdrawals.id, id))
  return row
}

/** One page of withdrawals, newest first (the id breaks ties), with the total; `userId` scopes to one seller. */
export async function listWithdrawals(db: Database, q: WithdrawalListQuery, scope: { userId?: number }) {
  const where = and(
    scope.userId ? eq(withdrawals.userId, scope.userId) : undefined,
    q.status ? eq(withdrawals.status, q.status) : undefined,
    q.keyword
      ? or(accountNamed(withdrawals.userId, q.keyword), ilike(withdrawals.alipayAccount, containing(q.keyword)), ilike(withdrawals.alipayRealName, containing(q.keyword)))
      : undefined,
    // Asia/Shanghai calendar days of the application time, both ends included.
    q.from ? gte(withdrawals.createdAt, dayStart(q.from)) : undefined,
    q.to ? lt(withdrawals.createdAt, dayStart(addDays(q.to, 1))) : undefined,
  )
  return readPage(
    q,
    db
      .select({ w: withdrawals, userName: users.userName })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id)),
    db.select({ n: count() }).from(withdrawals).innerJoin(users, eq(users.id, withdrawals.userId)).where(where),
  )
}

/** How many withdrawals wait for an admin (the queue length `/metrics` reports). */
export async function countPendingWithdrawals(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.status, 'Pending'))
  return row?.n ?? 0
}
