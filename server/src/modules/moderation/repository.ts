import { and, count, desc, eq, gte, inArray, isNull, lt, max } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import { addDays, dayStart } from '#contract/days.ts'
import type { adminAppealListQuerySchema, adminReportListQuerySchema, ReportReason } from '#contract/moderation.ts'
import type { Database } from '../../db/client.ts'
import { appeals, auditEvents, reports, shares, users } from '../../db/schema/index.ts'
import { readPage } from '../../db/paging.ts'

export type ReportRow = typeof reports.$inferSelect
export type AppealRow = typeof appeals.$inferSelect
export type ShareRow = typeof shares.$inferSelect

const reporter = alias(users, 'reporter')
const handler = alias(users, 'handler')
const seller = alias(users, 'seller')

const reportColumns = {
  r: reports,
  unicode: shares.unicode,
  shareTitle: shares.title,
  shareStatus: shares.status,
  reporterName: reporter.userName,
  handlerName: handler.userName,
}
export type ReportView = { r: ReportRow; unicode: string; shareTitle: string; shareStatus: ShareRow['status']; reporterName: string | null; handlerName: string | null }

const days = (column: typeof reports.createdAt | typeof appeals.createdAt, from?: string, to?: string) => [
  // Asia/Shanghai calendar days, both ends included.
  from ? gte(column, dayStart(from)) : undefined,
  to ? lt(column, dayStart(addDays(to, 1))) : undefined,
]

/** The share by its code (deleted ones too: a report of a deleted share is still a report of it). */
export async function findShareByUnicode(db: Database, unicode: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(shares).where(eq(shares.unicode, unicode)).limit(1)
  return row
}

export async function insertReport(db: Database, values: typeof reports.$inferInsert): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning()
  return row!
}

/** The report; `lock` holds its row until the transaction `db` ends. */
export async function findReport(db: Database, id: number, lock = false): Promise<ReportRow | undefined> {
  const query = db.select().from(reports).where(eq(reports.id, id))
  return (await (lock ? query.for('update') : query))[0]
}

/** Closes every open report of a share with one action; answers how many it closed. */
export async function closeOpenReports(tx: Database, shareId: number, set: { action: NonNullable<ReportRow['action']>; handledBy: number; handledAt: Date }) {
  const closed = await tx
    .update(reports)
    .set({ ...set, status: 'handled' })
    .where(and(eq(reports.shareId, shareId), eq(reports.status, 'processing')))
    .returning({ id: reports.id })
  return closed.length
}

function reportQuery(db: Database) {
  return db
    .select(reportColumns)
    .from(reports)
    .innerJoin(shares, eq(shares.id, reports.shareId))
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(handler, eq(handler.id, reports.handledBy))
}

export const reportView = async (db: Database, id: number): Promise<ReportView | undefined> => (await reportQuery(db).where(eq(reports.id, id)))[0]

/** One page of the report queue, newest first (the id breaks ties), with the total. */
export async function listReports(db: Database, q: z.output<typeof adminReportListQuerySchema>) {
  const where = and(
    q.status ? eq(reports.status, q.status) : undefined,
    q.reason ? eq(reports.reason, q.reason) : undefined,
    q.unicode ? eq(shares.unicode, q.unicode) : undefined,
    ...days(reports.createdAt, q.from, q.to),
  )
  return readPage(
    q,
    reportQuery(db).where(where).orderBy(desc(reports.createdAt), desc(reports.id)),
    db.select({ n: count() }).from(reports).innerJoin(shares, eq(shares.id, reports.shareId)).where(where),
  )
}

/**
 * Why each share is taken down now: the reasons of the reports closed as take-downs since its latest
 * move to reported_invalid (the audit trail's time of it; a take-down from share-manage has none).
 */
export async function takedownReasons(db: Database, shareIds: number[]): Promise<Map<number, ReportReason[]>> {
  const out = new Map<number, ReportReason[]>()
  if (shareIds.length === 0) return out
  const since = await db
    .select({ shareId: auditEvents.subjectId, at: max(auditEvents.createdAt) })
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, 'share'), inArray(auditEvents.subjectId, shareIds), eq(auditEvents.toState, 'reported_invalid')))
    .groupBy(auditEvents.subjectId)
  const from = new Map(since.map((s) => [s.shareId, s.at]))
  const rows = await db
    .select({ shareId: reports.shareId, reason: reports.reason, handledAt: reports.handledAt })
    .from(reports)
    .where(and(inArray(reports.shareId, shareIds), eq(reports.action, 'take_down')))
    .orderBy(reports.id)
  for (const r of rows) {
    const start = from.get(r.shareId)
    if (!start || !r.handledAt || r.handledAt < start) continue
    const list = out.get(r.shareId) ?? []
    if (!list.includes(r.reason as ReportReason)) list.push(r.reason as ReportReason)
    out.set(r.shareId, list)
  }
  return out
}

export async function insertAppeal(tx: Database, values: typeof appeals.$inferInsert): Promise<AppealRow> {
  const [row] = await tx.insert(appeals).values(values).returning()
  return row!
}

/** The appeal; `lock` holds its row until the transaction `db` ends. */
export async function findAppeal(db: Database, id: number, lock = false): Promise<AppealRow | undefined> {
  const query = db.select().from(appeals).where(eq(appeals.id, id))
  return (await (lock ? query.for('update') : query))[0]
}

export async function updateAppeal(tx: Database, id: number, set: Partial<typeof appeals.$inferInsert>) {
  await tx.update(appeals).set(set).where(eq(appeals.id, id))
}

const appealColumns = {
  a: appeals,
  unicode: shares.unicode,
  shareTitle: shares.title,
  shareStatus: shares.status,
  sellerName: seller.userName,
  handlerName: handler.userName,
}
export type AppealView = { a: AppealRow; unicode: string; shareTitle: string; shareStatus: ShareRow['status']; sellerName: string; handlerName: string | null }

export async function listAppeals(db: Database, q: z.output<typeof adminAppealListQuerySchema>) {
  const where = and(
    q.appeal_status ? eq(appeals.status, q.appeal_status) : undefined,
    q.unicode ? eq(shares.unicode, q.unicode) : undefined,
    ...days(appeals.createdAt, q.from, q.to),
  )
  return readPage(
    q,
    appealQuery(db).where(where).orderBy(desc(appeals.createdAt), desc(appeals.id)),
    db.select({ n: count() }).from(appeals).innerJoin(shares, eq(shares.id, appeals.shareId)).where(where),
  )
}

function appealQuery(db: Database) {
  return db
    .select(appealColumns)
    .from(appeals)
    .innerJoin(shares, eq(shares.id, appeals.shareId))
    .innerJoin(seller, eq(seller.id, appeals.sellerId))
    .leftJoin(handler, eq(handler.id, appeals.handledBy))
}

export const appealView = async (db: Database, id: number): Promise<AppealView | undefined> => (await appealQuery(db).where(eq(appeals.id, id)))[0]

/** A seller's taken-down (not deleted) shares, with their appeal of the current take-down if any. */
export async function sellerTakedowns(db: Database, sellerId: number) {
  return db
    .select({ share: { id: shares.id, unicode: shares.unicode, takedowns: shares.takedowns }, appeal: appeals })
    .from(shares)
    .leftJoin(appeals, and(eq(appeals.shareId, shares.id), eq(appeals.takedownNo, shares.takedowns)))
    .where(and(eq(shares.userId, sellerId), eq(shares.status, 'reported_invalid'), isNull(shares.deletedAt)))
    .orderBy(desc(shares.id))
    .limit(500)
}
