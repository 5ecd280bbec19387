import { and, asc, count, desc, eq, gt, gte, ilike, lt, ne, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { channels, sellerChannels, sellerDailyIncome } from '../../db/schema/index.ts'
import { containing } from '../../db/search.ts'
import { type PageQuery, readPage } from '../../db/paging.ts'

export type ChannelRow = typeof channels.$inferSelect
export type ChannelValues = Omit<typeof channels.$inferInsert, 'id'>

/**
 * Sellers for whom a channel is open at `now` (a correlated subquery: the outer channel's id is named
 * with its table, which drizzle leaves out of a column in a one-table select).
 */
const openSellersAt = (now: Date) =>
  sql<number>`(select count(distinct sc.seller_id) from ${sellerChannels} sc where sc.channel_id = ${sql.identifier('channels')}.${sql.identifier('id')} and sc.starts_at <= ${now} and sc.ends_at > ${now})`.mapWith(
    Number,
  )

/** One page of channels (newest first), each with how many sellers have it open now, and the total. */
export async function listChannels(
  db: Database,
  q: PageQuery & { status?: 'enable' | 'disable'; keyword?: string },
  now: Date,
) {
  const where = and(q.status ? eq(channels.status, q.status) : undefined, q.keyword ? ilike(channels.name, containing(q.keyword)) : undefined)
  return readPage(
    q,
    db.select({ channel: channels, openSellers: openSellersAt(now) }).from(channels).where(where).orderBy(desc(channels.createdAt), desc(channels.id)),
    db.select({ n: count() }).from(channels).where(where),
  )
}

/** One page of the enabled channels as sellers see them: lowest fee rate first, then cheapest. */
export async function listEnabledChannels(db: Database, q: PageQuery) {
  const where = eq(channels.status, 'enable')
  return readPage(
    q,
    db.select().from(channels).where(where).orderBy(asc(channels.feeRateBp), asc(channels.priceFen), asc(channels.id)),
    db.select({ n: count() }).from(channels).where(where),
  )
}

export async function findChannel(db: Database, id: number): Promise<ChannelRow | undefined> {
  const [row] = await db.select().from(channels).where(eq(channels.id, id))
  return row
}

export async function openSellersOf(db: Database, id: number, now: Date): Promise<number> {
  const [row] = await db.select({ n: openSellersAt(now) }).from(channels).where(eq(channels.id, id))
  return row?.n ?? 0
}

/** Whether another channel has this name (compared as `sameNameKey` does: case and spaces aside). */
export async function nameTaken(db: Database, nameKey: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(and(sql`lower(regexp_replace(btrim(${channels.name}), '\\s+', ' ', 'g')) = ${nameKey}`, exceptId ? ne(channels.id, exceptId) : undefined))
    .limit(1)
  return Boolean(row)
}

/**
 * Serialises channel writes that check the name (create, rename) for the rest of the transaction, so
 * two admins saving the same name at once cannot both pass the check (no unique index on a normalised
 * name in the schema).
 */
export async function lockChannelNames(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('payshare.channels.name'))`)
}

export async function insertChannel(db: Database, values: ChannelValues): Promise<ChannelRow> {
  const [row] = await db.insert(channels).values(values).returning()
  return row!
}

export async function updateChannel(db: Database, id: number, set: Partial<ChannelValues>, now: Date): Promise<ChannelRow | undefined> {
  const [row] = await db
    .update(channels)
    .set({ ...set, updatedAt: now })
    .where(eq(channels.id, id))
    .returning()
  return row
}

/** A seller's net sale and refund income on the Shanghai days [from, to) (the ledger's daily aggregate). */
export async function incomeBetweenFen(db: Database, sellerId: number, from: string, to: string): Promise<number> {
  const [row] = await db
    .select({ s: sql<string | null>`sum(${sellerDailyIncome.incomeFen})` })
    .from(sellerDailyIncome)
    .where(and(eq(sellerDailyIncome.sellerId, sellerId), gte(sellerDailyIncome.day, from), lt(sellerDailyIncome.day, to)))
  return Number(row?.s ?? 0)
}

/** The seller's channel periods not yet over at `now` (current and queued), soonest first, with the channel's name. */
export async function openPeriods(db: Database, sellerId: number, now: Date) {
  return db
    .select({
      channelId: sellerChannels.channelId,
      name: channels.name,
      feeRateBp: sellerChannels.feeRateBp,
      startsAt: sellerChannels.startsAt,
      endsAt: sellerChannels.endsAt,
    })
    .from(sellerChannels)
    .innerJoin(channels, eq(channels.id, sellerChannels.channelId))
    .where(and(eq(sellerChannels.sellerId, sellerId), gt(sellerChannels.endsAt, now)))
    .orderBy(asc(sellerChannels.startsAt), asc(sellerChannels.id))
}
