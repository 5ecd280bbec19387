import { ilike, or, sql, type SQLWrapper } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, openTestDatabase, uniqueName } from '../../test/helpers.ts'
import type { Database } from './client.ts'
import { orders, shares, users } from './schema/index.ts'
import { accountNamed, containing } from './search.ts'

let t: Awaited<ReturnType<typeof openTestDatabase>>
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t.close())

const rowsOf = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? (result as T[]))

/** The plan of `query` as the planner makes it when it may not read a whole table (`costs off`). */
async function planWithoutSeqScan(db: Database, query: SQLWrapper) {
  return db.transaction(async (tx) => {
    // A test database holds a few rows, where a scan is cheapest: forbid it, to see whether an index can serve.
    await tx.execute(sql`set local enable_seqscan = off`)
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain (costs off) ${query}`))
    return plan.map((r) => r['QUERY PLAN']).join('\n')
  })
}

describe('keyword search (decision 098)', () => {
  it('the migrations install pg_trgm and a trigram index on every column an admin keyword filter searches', async () => {
    const ext = rowsOf<{ extname: string }>(await t.db.execute(sql`select extname from pg_extension where extname = 'pg_trgm'`))
    expect(ext).toHaveLength(1)
    const indexes = rowsOf<{ indexname: string }>(await t.db.execute(sql`select indexname from pg_indexes where schemaname = 'public' and indexdef like '%gin_trgm_ops%' order by 1`))
    expect(indexes.map((r) => r.indexname)).toEqual([
      'login_records_email_trgm_idx',
      'login_records_ip_trgm_idx',
      'login_records_user_name_trgm_idx',
      'orders_product_name_trgm_idx',
      'shares_title_trgm_idx',
      'users_email_trgm_idx',
      'users_phone_trgm_idx',
      'users_user_name_trgm_idx',
      'withdrawals_alipay_account_trgm_idx',
      'withdrawals_alipay_real_name_trgm_idx',
    ])
  })

  it('an ILIKE contains-pattern is served by the trigram index', async () => {
    const plan = await planWithoutSeqScan(t.db, t.db.select({ id: users.id }).from(users).where(ilike(users.userName, containing('bs_4242'))))
    expect(plan).toContain('users_user_name_trgm_idx')
  })

  it('a keyword over an order and its accounts names is served by indexes, not a join of every order', async () => {
    const keyword = 'bs_4242'
    const query = t.db
      .select({ id: orders.id })
      .from(orders)
      .where(or(ilike(orders.productName, containing(keyword)), accountNamed(orders.buyerId, keyword), accountNamed(orders.sellerId, keyword)))
    const plan = await planWithoutSeqScan(t.db, query)
    for (const index of ['orders_product_name_trgm_idx', 'orders_buyer_idx', 'orders_seller_idx', 'users_user_name_trgm_idx']) expect(plan).toContain(index)
    const shareQuery = t.db.select({ id: shares.id }).from(shares).where(or(ilike(shares.title, containing(keyword)), accountNamed(shares.userId, keyword)))
    const sharePlan = await planWithoutSeqScan(t.db, shareQuery)
    for (const index of ['shares_title_trgm_idx', 'shares_user_idx', 'users_user_name_trgm_idx']) expect(sharePlan).toContain(index)
  })

  it('accountNamed matches names containing the keyword, case-insensitively, with % _ and \\ taken literally', async () => {
    const tag = uniqueName('kw').toLowerCase()
    const literal = await createUser(t.db, { userName: `${tag}_a%b\\c` })
    const lookalike = await createUser(t.db, { userName: `${tag}xaxbxc` })
    const named = async (keyword: string) =>
      (await t.db.select({ id: users.id }).from(users).where(accountNamed(users.id, keyword))).map((r) => r.id).sort((a, b) => a - b)
    expect(await named(tag.toUpperCase())).toEqual([literal.id, lookalike.id])
    expect(await named(`${tag}_`)).toEqual([literal.id])
    expect(await named('_a%b\\c')).toEqual([literal.id])
    expect(await named('a%b')).toEqual([literal.id])
    expect(await named('%')).toEqual([literal.id])
    expect(await named(`${tag}_a_b`)).toEqual([])
    expect(await named('no such name at all')).toEqual([])
  })
})
