// Issue 9 "Scale": the admin statistics and the filtered admin lists on a marketplace of
// BENCH_STATS_USERS users, BENCH_STATS_SHARES shares and BENCH_STATS_ORDERS orders (PostgreSQL defaults:
// 100,000 / 200,000 / 1,000,000; PGlite: 100,000 orders and a tenth of the users and shares), plus
// withdrawals, login records and open reports — written in bulk by SQL (generate_series), as the income
// fixture does (bench/income-orders.mjs). The orders' statistics trigger is set aside for the load and
// the aggregate rebuilt once by the migration's own `order_daily_stats_rebuild()` (decision 074).
// Then each statistics query and each admin list with filters is timed one request at a time beside
// GET /api/health, and printed with its target (≤ 200 ms, ≤ 50 ms); the statistics also at their first
// request after the start and, on PostgreSQL, each after a refund of a past order (decision 101).
import { benchApi } from './api.ts'

const env = (name, fallback) => Math.max(1, Math.floor(Number(process.env[name] ?? fallback)))

/** The sizes for a database: the on PostgreSQL, a tenth of the orders on PGlite (one process, WASM). */
export function statisticsSizes(postgres) {
  return postgres
    ? { users: env('BENCH_STATS_USERS', 100_000), shares: env('BENCH_STATS_SHARES', 200_000), orders: env('BENCH_STATS_ORDERS', 1_000_000) }
    : { users: env('BENCH_STATS_PGLITE_USERS', 10_000), shares: env('BENCH_STATS_PGLITE_SHARES', 20_000), orders: env('BENCH_STATS_PGLITE_ORDERS', 100_000) }
}

/**
 * The statements. Users `bs_<n>` (the first fifth sell), shares spread over the sellers, orders over
 * the last 365 days: 70 % Completed (3 % of all free unlocks of 0), 12 % Failed, 8 % Refund, 10 %
 * Pending (not yet expired, so the expiry sweep leaves them alone while the bench runs); 60 % of the
 * orders by a buyer with an account. Withdrawals (a twentieth of the orders), login records (two per
 * user) and 1,000 open reports.
 */
export function statisticsSql({ users, shares, orders }) {
  const sellers = Math.max(1, Math.floor(users / 5))
  const withdrawals = Math.max(1, Math.floor(orders / 20))
  return `
begin;
create temp table bench_indexes on commit drop as
  select indexname, indexdef from pg_indexes i
  where schemaname = 'public' and tablename in ('orders', 'shares', 'users', 'withdrawals', 'login_records')
    and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
    and indexname not in ('users_user_name_key', 'users_email_key', 'users_phone_key', 'shares_unicode_key');
do $$ declare r record; begin
  for r in select indexname from bench_indexes loop execute 'drop index ' || quote_ident(r.indexname); end loop;
end $$;
alter table orders disable trigger order_daily_stats_insert_delete;
alter table orders disable trigger order_daily_stats_update;

insert into users (user_name, email, password_hash, role, created_at)
  select 'bs_' || g, 'bs_' || g || '@payshare.local', (select password_hash from users where user_name = 'admin'), 'user',
         now() - make_interval(secs => (g::bigint * 7919 % 31536000))
  from generate_series(1, ${users}) g;
create temp table bench_users on commit drop as
  select id, row_number() over (order by id) - 1 as n from users where user_name like 'bs\\_%';
create unique index on bench_users (n);

insert into shares (user_id, title, unicode, type, content_enc, price_fen, status, visit_count, purchase_count, created_at)
  select u.id, 'Bench share ' || g, 's' || lpad(to_hex(g), 7, '0'), 'text', 'x', 100 + (g % 50) * 100,
         case when g % 100 < 95 then 'approved' when g % 100 < 98 then 'under_review' else 'reported_invalid' end,
         g % 500, g % 37, now() - make_interval(secs => (g::bigint * 104729 % 31536000))
  from generate_series(1, ${shares}) g join bench_users u on u.n = g % ${sellers};
create temp table bench_shares on commit drop as
  select id, user_id, price_fen, row_number() over (order by id) - 1 as n from shares where unicode like 's%' and title like 'Bench share %';
create unique index on bench_shares (n);

insert into orders (order_no, product_type, share_id, seller_id, buyer_id, product_name, amount_fen, payment_method, provider, payment_status,
                    provider_trade_no, fee_fen, fee_rate_bp, settle_at, seller_income_fen, expires_at, paid_at, refunded_at, created_at)
select 'PSB' || lpad(g::text, 25, '0'), 'share', s.id, s.user_id,
       case when g % 10 < 6 then b.id end, 'Bench share', a.amount,
       case when g % 3 = 0 then 'WeChat' else 'Alipay' end,
       case when a.amount = 0 then 'subscription' else 'sandbox' end, a.status,
       case when a.status in ('Completed', 'Refund') then 'SBXSTAT' || g end,
       case when a.status in ('Completed', 'Refund') then (a.amount * 500 + 5000) / 10000 end,
       case when a.status in ('Completed', 'Refund') then 500 end,
       case when a.status in ('Completed', 'Refund') then c.at + interval '24 hours' end,
       case when a.status in ('Completed', 'Refund') then a.amount - (a.amount * 500 + 5000) / 10000 end,
       case when a.status = 'Pending' then now() + interval '1 day' else c.at + interval '30 minutes' end,
       case when a.status in ('Completed', 'Refund') then c.at + interval '1 minute' end,
       case when a.status = 'Refund' then c.at + interval '1 hour' end,
       c.at
from generate_series(1, ${orders}) g
cross join lateral (select now() - make_interval(secs => (g::bigint * 2654435761 % 31536000)) as at) c
cross join lateral (select
    case when g % 100 < 70 then 'Completed' when g % 100 < 82 then 'Failed' when g % 100 < 90 then 'Refund' else 'Pending' end as status,
    g % 100 as bucket) st
join bench_shares s on s.n = (g::bigint * 7919) % ${shares}
join bench_users b on b.n = (g::bigint * 104729) % ${users}
cross join lateral (select st.status, case when st.bucket < 3 then 0 else s.price_fen end as amount) a;

insert into withdrawals (user_id, amount_fen, fee_fen, actual_fen, alipay_account, alipay_real_name, status, created_at)
  select u.id, 1000 + g % 90000, 10 + (g % 90000) / 100, 1000 + g % 90000 - (10 + (g % 90000) / 100), '13800138000', '张三',
         case when g % 10 < 7 then 'Completed' when g % 10 < 9 then 'Pending' else 'Failed' end,
         now() - make_interval(secs => (g::bigint * 7919 % 31536000))
  from generate_series(1, ${withdrawals}) g join bench_users u on u.n = g % ${sellers};

insert into login_records (user_id, user_name, email, browser, device, ip, created_at)
  select u.id, 'bs_' || (u.n + 1), 'bs_' || (u.n + 1) || '@payshare.local', 'Chrome 120', 'Windows', '10.' || (g % 250) || '.' || (g / 250 % 250) || '.' || (g % 7),
         now() - make_interval(secs => (g::bigint * 104729 % 31536000))
  from generate_series(1, ${users * 2}) g join bench_users u on u.n = g % ${users};

insert into reports (share_id, reason, description, reporter_ip, share_status)
  select s.id, 'spam', 'bench', '10.9.9.9', 'approved' from bench_shares s where s.n < 1000;

alter table orders enable trigger order_daily_stats_insert_delete;
alter table orders enable trigger order_daily_stats_update;
select order_daily_stats_rebuild();
do $$ declare r record; begin
  for r in select indexdef from bench_indexes loop execute r.indexdef; end loop;
end $$;
commit;
`
}

// After the bulk load, what autovacuum does to a live database on its own (inserts trigger it since
// PostgreSQL 13): statistics for the planner, and the visibility map, without which the lists' counts
// and the aggregate's reads cannot be index-only and visit every heap page (decision 074). Its own
// statement: VACUUM cannot run inside the load's transaction.
const SETTLE = 'vacuum analyze'

async function seedPglite(dataDir, sizes) {
  const { PGlite } = await import('@electric-sql/pglite')
  // The API's own extensions (server/src/db/client.ts): the trigram indexes need pg_trgm's functions.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const path = await import('node:path')
  const db = new PGlite(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } })
  await db.waitReady
  try {
    await db.exec(statisticsSql(sizes))
    await db.exec(SETTLE)
    await db.exec('checkpoint')
  } finally {
    await db.close()
  }
}

async function seedPostgres(url, sizes) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statisticsSql(sizes))
    await client.query(SETTLE)
  } finally {
    await client.end()
  }
}

/**
 * Seeds a stopped API's database, starts it again (`startApi()` → the child), logs the admin in and
 * times the statistics endpoints and the filtered admin lists with `sequential` (the bench's one request
 * at a time helper), then stops it. Returns the rows to print: name, p50, p99, target.
 */
export async function statisticsBench({ label, dataDir, databaseUrl, apiPort, adminPassword, startApi, stopChild, sequential, requests }) {
  const sizes = statisticsSizes(Boolean(databaseUrl))
  const started = performance.now()
  if (databaseUrl) await seedPostgres(databaseUrl, sizes)
  else await seedPglite(dataDir, sizes)
  const seedSeconds = (performance.now() - started) / 1000
  const api = await startApi()
  const bench = benchApi(`http://127.0.0.1:${apiPort}`)
  const token = await bench.login('admin', adminPassword)
  const headers = { authorization: `Bearer ${token}` }
  const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10)
  const { stats, lists } = bench.statisticsTargets(day)
  const targets = [{ name: 'GET /api/health (baseline)', url: bench.health, target: null }, ...stats, ...lists]
  const timed = async (url) => {
    const started = performance.now()
    const res = await fetch(url, { headers })
    await res.text()
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
    return performance.now() - started
  }
  // The first request of each range after the start sums its past days whole (decision 101).
  const first = []
  for (const t of stats) first.push(await timed(t.url))
  // And ranges other than the defaults: whole months kept since the start plus a few days (decision 144).
  const others = bench.statisticsFirstTargets(day)
  const otherFirst = []
  for (const t of others) otherFirst.push(await timed(t.url))
  const times = await sequential(
    targets.map((t) => ({ url: t.url, headers })),
    requests,
  )
  // Then, on PostgreSQL (the bench can write to it beside the API), each request after a refund of an
  // order of ten days ago: the kept past days are brought up to date from the log.
  const afterChange = []
  if (databaseUrl) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    const lists = stats.map(() => [])
    for (let i = 0; i < 10; i++) {
      for (const [k, t] of stats.entries()) {
        await client.query(`update orders set payment_status = 'Refund', refunded_at = now() where id = (
          select id from orders where payment_status = 'Completed' and amount_fen > 0
            and created_at < now() - interval '10 days' and created_at > now() - interval '11 days' limit 1)`)
        lists[k].push(await timed(t.url))
      }
    }
    await client.end()
    for (const list of lists) {
      list.sort((a, b) => a - b)
      afterChange.push({ p50: list[Math.floor(list.length / 2)], p99: list.at(-1) })
    }
  }
  const cluster = await bench.cluster(token)
  await stopChild(api)
  console.log(`  ${label}: statistics fixture (${sizes.users.toLocaleString('en')} users, ${sizes.shares.toLocaleString('en')} shares, ${sizes.orders.toLocaleString('en')} orders) seeded in ${seedSeconds.toFixed(1)} s; cluster ${JSON.stringify(cluster)}`)
  return [
    ...targets.map((t, i) => ({ name: `${t.name} (${label})`, ...times[i], target: t.target })),
    ...stats.map((t, i) => ({ name: `${t.name}, first request after the start (${label})`, p50: first[i], p99: first[i], target: t.target })),
    ...others.map((t, i) => ({ name: `${t.name}, first request after the start (${label})`, p50: otherFirst[i], p99: otherFirst[i], target: t.target })),
    ...afterChange.map((r, i) => ({ name: `${stats[i].name}, after a refund of a past order (${label})`, ...r, target: stats[i].target })),
  ]
}
