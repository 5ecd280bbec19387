// Issue 7 "Scale": one seller with many orders (200,000 by default), their ledger entries and the
// pre-aggregates, written in bulk by SQL (generate_series), not one by one through the API — a fixture
// for `npm run bench`, which then measures GET /api/income/summary and /api/income/daily on it.
// The rows are what the ledger service would have written (server/src/modules/ledger/service.ts): a
// `sale` entry per paid order available at its settle time (paid + 24 h), a `refund` entry for every
// 100th order, `seller_balances` and `seller_daily_income` (Asia/Shanghai days) summed from them.
// The sales are spread evenly over the last 365 days, so about 550 a day — and as many unsettled.

export const BENCH_SELLER = 'bench_seller'

/**
 * The statements, for a database the API has migrated and seeded (the admin exists): the seller gets
 * the admin's password hash, so it logs in with the admin's password.
 */
export function incomeOrdersSql(orders) {
  const n = Math.max(1, Math.floor(orders))
  const spreadSeconds = (365 * 24 * 3600) / n
  return `
begin;
-- Indexes are built once after the rows are in, not row by row: set aside (their definitions kept as
-- the database has them) and made again at the end.
create temp table bench_indexes on commit drop as
  select indexname, indexdef from pg_indexes i
  where schemaname = 'public' and tablename in ('orders', 'ledger_entries')
    and not exists (select 1 from pg_constraint c where c.conname = i.indexname);
do $$ declare r record; begin
  for r in select indexname from bench_indexes loop execute 'drop index ' || quote_ident(r.indexname); end loop;
end $$;
insert into users (user_name, email, password_hash, role, terms_agreed_at)
  select '${BENCH_SELLER}', '${BENCH_SELLER}@payshare.local', password_hash, 'user', now() from users where user_name = 'admin';
insert into shares (user_id, title, unicode, type, content_enc, price_fen, status)
  select id, 'Bench share', 'BenchSh2', 'text', 'x', 990, 'approved' from users where user_name = '${BENCH_SELLER}';
with s as (select u.id as seller_id, sh.id as share_id from users u join shares sh on sh.user_id = u.id where u.user_name = '${BENCH_SELLER}'),
g as (
  select g, now() - make_interval(secs => g * ${spreadSeconds}) as paid_at, 100 + (g % 50) * 100 as amount_fen from generate_series(1, ${n}) g
)
insert into orders (order_no, product_type, share_id, seller_id, product_name, amount_fen, payment_method, provider, payment_status,
                    provider_trade_no, fee_fen, fee_rate_bp, settle_at, seller_income_fen, expires_at, paid_at, refunded_at, created_at)
select 'PS' || lpad(g::text, 26, '0'), 'share', s.share_id, s.seller_id, 'Bench share', amount_fen,
       case when g % 3 = 0 then 'WeChat' else 'Alipay' end, 'sandbox',
       case when g % 100 = 0 then 'Refund' else 'Completed' end,
       'SBXBENCH' || g, (amount_fen * 500 + 5000) / 10000, 500, paid_at + interval '24 hours',
       amount_fen - (amount_fen * 500 + 5000) / 10000,
       paid_at + interval '29 minutes', paid_at, case when g % 100 = 0 then paid_at + interval '1 hour' end, paid_at - interval '1 minute'
from g cross join s;
insert into ledger_entries (seller_id, kind, amount_fen, order_id, available_at, created_at)
  select seller_id, 'sale', seller_income_fen, id, settle_at, paid_at from orders where provider_trade_no like 'SBXBENCH%';
insert into ledger_entries (seller_id, kind, amount_fen, order_id, available_at, created_at)
  select seller_id, 'refund', -seller_income_fen, id, greatest(settle_at, refunded_at), refunded_at from orders
  where provider_trade_no like 'SBXBENCH%' and payment_status = 'Refund';
insert into seller_balances (seller_id, balance_fen, income_fen)
  select e.seller_id, sum(e.amount_fen), sum(e.amount_fen) filter (where e.kind in ('sale', 'refund'))
  from ledger_entries e join users u on u.id = e.seller_id where u.user_name = '${BENCH_SELLER}' group by e.seller_id;
insert into seller_daily_income (seller_id, day, income_fen, orders)
  select e.seller_id, to_char((e.created_at at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD'),
         sum(e.amount_fen), count(*) filter (where e.kind = 'sale')
  from ledger_entries e join users u on u.id = e.seller_id
  where u.user_name = '${BENCH_SELLER}' and e.kind in ('sale', 'refund')
  group by 1, 2;
do $$ declare r record; begin
  for r in select indexdef from bench_indexes loop execute r.indexdef; end loop;
end $$;
commit;
analyze users; analyze orders; analyze ledger_entries; analyze seller_balances; analyze seller_daily_income;
`
}

/** Runs the statements on the embedded database of a data dir (the API must not be running on it). */
export async function seedPglite(dataDir, orders) {
  const { PGlite } = await import('@electric-sql/pglite')
  // The API's own extensions (server/src/db/client.ts): the trigram indexes need pg_trgm's functions.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const path = await import('node:path')
  const db = new PGlite(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } })
  await db.waitReady
  try {
    await db.exec(incomeOrdersSql(orders))
    // Written out now, not by the API's first minutes while it is being measured.
    await db.exec('checkpoint')
  } finally {
    await db.close()
  }
}

/** Runs the statements on a PostgreSQL database. */
export async function seedPostgres(url, orders) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(incomeOrdersSql(orders))
  } finally {
    await client.end()
  }
}
