// `npm run test:cluster` (issue 22): starts the cluster of `npm run cluster` (two APIs, two consoles,
// nginx, a fresh PostgreSQL database, Redis) and, through nginx only, buys a share and reads it, sees a
// chat line reach live streams held by both consoles, then runs ~60 s of mixed load (share pages,
// logged-in pages, purchases, withdrawals, chat) while it kill -9s one API and one console and starts
// them again, then restarts all four one by one with SIGTERM. It prints what was sent and what failed,
// whether any acknowledged write was lost, the live events missed, and the ledger invariants after.
// Exit code 0 only when every goal holds (decision 136). Calls go through the contract's typed client.
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import pg from 'pg'
import { authApi } from '#contract/auth.ts'
import { fetchClient, requestOf } from '#contract/client.ts'
import { incomeApi } from '#contract/income.ts'
import { chatApi } from '#contract/messages.ts'
import { ordersApi } from '#contract/orders.ts'
import { shareApi, sharesApi } from '#contract/shares.ts'
import { withdrawalsApi } from '#contract/withdrawals.ts'
import { BUYER_KEY_HEADER } from '#contract/codes.ts'
import { DEMO_PASSWORD, DEMO_SELLER } from '#server/db/seed.ts'
import { startCluster, stopOnSignals } from '../../scripts/cluster.mjs'

const LOAD_SECONDS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 60)
const WORKERS = Number(process.env.CLUSTER_LOAD_WORKERS ?? 6)
const started = performance.now()
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`
const say = (line) => console.log(`  [${secs(performance.now() - started).padStart(7)}] ${line}`)

const settingsEnv = {
  ...process.env,
  CLUSTER_DATABASE_NAME: process.env.CLUSTER_DATABASE_NAME ?? 'payshare_cluster_test',
  CLUSTER_DIR: process.env.CLUSTER_DIR ?? 'data/cluster-test',
}

// ---------------------------------------------------------------------------------------------------

/** What was sent, by kind; a request "failed" when nginx or an instance could not answer it (5xx, reset). */
function tally() {
  const by = new Map()
  return {
    add(kind, idempotent, failed, status, cut = false) {
      const t = by.get(kind) ?? { kind, idempotent, sent: 0, failed: 0, refused: 0, cut: 0, statuses: {} }
      t.sent++
      if (status >= 400 && status < 500) t.refused++
      if (cut) t.cut++
      if (failed) {
        t.failed++
        t.statuses[status] = (t.statuses[status] ?? 0) + 1
      }
      by.set(kind, t)
    },
    rows: () => [...by.values()],
  }
}
const requests = tally()
/**
 * When each `kill -9` was sent. An answer already on its way when its instance is SIGKILLed is cut
 * short: nginx passes an answer on as it arrives and retries only before the first byte, so no balancer
 * can save it (nginx's log: "upstream prematurely closed connection while reading upstream"). An
 * idempotent request with no whole answer and a kill -9 while it was in flight is counted as cut, not
 * failed; a 5xx is never excused, and SIGTERM restarts excuse nothing (decision 136's amendment).
 */
const sigkills = []
/** Each failed request: when (since the start), what, and what came back — printed when the run fails. */
const failures = []
const noteFailure = (kind, status, body) => {
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]
  const excerpt = (title ?? body).replace(/\s+/g, ' ').slice(0, 160)
  failures.push(`[${secs(performance.now() - started).padStart(7)}] ${kind}: ${status} ${excerpt}`)
}

/** One request through nginx: the answer, or `{ failed }` when none came or it was a 5xx. */
async function send(kind, url, init = {}, idempotent = (init.method ?? 'GET') === 'GET') {
  const t0 = performance.now()
  let res
  try {
    res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(20_000) })
    const body = await res.text()
    const failed = res.status >= 500
    requests.add(kind, idempotent, failed, res.status)
    if (failed) noteFailure(kind, res.status, body)
    return { status: res.status, body, headers: res.headers, failed, json: () => JSON.parse(body) }
  } catch (e) {
    const why = e?.name === 'TimeoutError' ? 'timeout' : `no answer: ${e?.cause?.code ?? e?.cause?.message ?? e?.message}`
    const now = performance.now()
    const cut = idempotent && e?.name !== 'TimeoutError' && sigkills.some((k) => k >= t0 && k <= now)
    requests.add(kind, idempotent, !cut, why, cut)
    noteFailure(kind, cut ? `${why} (cut by a kill -9 while in flight)` : why, '')
    return { status: 0, body: String(e), failed: true, json: () => ({}) }
  }
}

/** A call of an API endpoint through nginx's API side, by its contract definition. */
function apiCall(kind, endpoint, input = {}, headers = {}) {
  const { token, ...rest } = input
  const req = requestOf(cluster.apiUrl, endpoint, rest)
  const h = { accept: 'application/json', ...headers }
  if (token) h.authorization = `Bearer ${token}`
  if (req.body !== undefined) h['content-type'] = 'application/json'
  return send(kind, req.url, { method: req.method, headers: h, body: req.body })
}
const dataOf = (r) => {
  if (r.failed) return null
  try {
    const env = r.json()
    return env.code === 200 || env.code === 201 ? env.data : null
  } catch {
    return null
  }
}

/** A console session (the signed cookie) for a user, logged in through nginx like a browser. */
async function consoleLogin(username, password) {
  const res = await fetch(`${cluster.webUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: cluster.webUrl },
    body: new URLSearchParams({ intent: 'login', username, password }),
  })
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0])
  if (res.status !== 302 || !cookies.length) throw new Error(`console login of ${username}: ${res.status}`)
  return cookies.join('; ')
}

/**
 * A browser's EventSource on the console's `/events`: reconnects after a drop (with Last-Event-ID when
 * the stream gave ids) and collects the chat lines it receives.
 */
function liveStream(name, cookie) {
  const seen = new Set()
  const state = { name, seen, connects: 0, ids: false, lastId: null, closed: false, ready: null }
  let markReady
  state.ready = new Promise((r) => (markReady = r))
  const controller = new AbortController()
  ;(async () => {
    while (!state.closed) {
      try {
        const headers = { cookie, accept: 'text/event-stream' }
        if (state.lastId) headers['last-event-id'] = state.lastId
        const res = await fetch(`${cluster.webUrl}/events`, { headers, signal: controller.signal })
        if (res.status !== 200 || !res.body) throw new Error(`status ${res.status}`)
        state.connects++
        markReady()
        const decoder = new TextDecoder()
        let buf = ''
        for await (const chunk of res.body) {
          buf += decoder.decode(chunk, { stream: true })
          let cut
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, cut)
            buf = buf.slice(cut + 2)
            let data = ''
            for (const line of frame.split('\n')) {
              if (line.startsWith('data:')) data += line.slice(5).trim()
              else if (line.startsWith('id:')) {
                state.ids = true
                state.lastId = line.slice(3).trim()
              }
            }
            if (!data) continue
            try {
              const ev = JSON.parse(data)
              if (ev.type === 'chat' && ev.message?.content) seen.add(ev.message.content)
            } catch {}
          }
        }
      } catch {}
      if (!state.closed) await sleep(state.retryMs ?? 1000)
    }
  })()
  state.close = () => {
    state.closed = true
    controller.abort()
  }
  return state
}

async function waitUntil(check, ms) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (check()) return true
    await sleep(50)
  }
  return check()
}

async function q(text, params = []) {
  return (await db.query(text, params)).rows
}

async function run() {
  const { ok } = fetchClient(cluster.apiUrl)
  const adminToken = (await ok(authApi.login, { body: { username: 'admin', password: cluster.adminPassword } })).token
  const sellerToken = (await ok(authApi.login, { body: { username: DEMO_SELLER.userName, password: DEMO_PASSWORD } })).token
  const approved = (await ok(sharesApi.adminList, { token: adminToken, query: { status: 'approved', pageSize: 50 } })).list
  const forSale = approved.filter((s) => s.user_name === DEMO_SELLER.userName && s.price > 0)
  if (!forSale.length) throw new Error('no approved share of demo_seller to buy')
  const codes = forSale.map((s) => s.unicode)

  // ---- Buy a share and read it ----
  let ipSeq = 0
  const freshIp = () => {
    ipSeq++
    return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`
  }
  const acked = { orders: [], paid: [], chatLines: [], withdrawals: [] }
  const failedWrites = []

  /** Creates an order, pays it on the sandbox checkout, reads the content: the buyer's three steps. */
  async function purchase(unicode) {
    const ip = freshIp()
    const created = await apiCall('POST order create', ordersApi.create, { body: { unicode, paymentMethod: 'Alipay' } }, { 'x-forwarded-for': ip })
    const order = dataOf(created)
    if (!order) {
      if (created.failed) failedWrites.push({ kind: 'order create', check: async () => (await q('SELECT 1 FROM orders WHERE buyer_ip = $1', [ip])).length > 0 })
      return null
    }
    acked.orders.push(order.orderNo)
    // The sandbox checkout's Pay button: the signed form posted to the API's public side.
    const pay = new URL(order.payUrl)
    const form = new URLSearchParams(pay.searchParams)
    form.set('action', 'pay')
    const paid = await send('POST sandbox pay', new URL(pay.pathname, cluster.apiUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body: form.toString() }, false)
    if (paid.status !== 303) {
      if (paid.failed) failedWrites.push({ kind: 'sandbox pay', check: async () => (await q(`SELECT 1 FROM orders WHERE order_no = $1 AND payment_status = 'Completed'`, [order.orderNo])).length > 0 })
      return null
    }
    acked.paid.push(order.orderNo)
    const read = await apiCall('GET share by order', shareApi.lookup, { query: { third_party_trade_no: order.orderNo } }, { [BUYER_KEY_HEADER]: order.buyerKey })
    const share = dataOf(read)
    return { ...order, content: share?.content ?? null }
  }

  const first = await purchase(codes[0])
  if (!first?.content) throw new Error(`buying and reading ${codes[0]} failed: ${JSON.stringify(first)}`)
  say(`bought share ${codes[0]} (order ${first.orderNo}) and read its content through nginx`)

  // ---- A chat line reaches live streams on both consoles ----
  const adminCookie = await consoleLogin('admin', cluster.adminPassword)
  const sellerCookie = await consoleLogin(DEMO_SELLER.userName, DEMO_PASSWORD)
  // Two streams one after the other: nginx's round robin puts one on each console (nothing else runs).
  const streams = [liveStream('stream A', adminCookie)]
  await streams[0].ready
  streams.push(liveStream('stream B', adminCookie))
  await streams[1].ready
  // Visitors' chats of paid orders: the buyer writes, every admin's stream hears it.
  const chats = []
  // Eight chats: a writer may send 20 lines a minute (the message limit), and the load sends more.
  for (let k = 0; k < 8; k++) {
    const o = k === 0 ? first : await purchase(codes[k % codes.length])
    if (!o) throw new Error('a purchase for a chat failed before the load')
    const chat = dataOf(await apiCall('POST chat create', chatApi.create, { body: { order_no: o.orderNo } }, { [BUYER_KEY_HEADER]: o.buyerKey }))
    if (!chat) throw new Error('opening a chat failed')
    chats.push({ id: chat.id, orderNo: o.orderNo, buyerKey: o.buyerKey })
  }
  await sleep(300)
  let lineSeq = 0
  async function chatLine() {
    const c = chats[lineSeq % chats.length]
    const content = `cluster line ${++lineSeq} ${crypto.randomBytes(3).toString('hex')}`
    const r = await apiCall('POST chat line', chatApi.send, { body: { chat_id: c.id, content, order_no: c.orderNo } }, { [BUYER_KEY_HEADER]: c.buyerKey })
    if (dataOf(r)) acked.chatLines.push({ content, at: performance.now() })
    else if (r.failed) failedWrites.push({ kind: 'chat line', check: async () => (await q('SELECT 1 FROM chat_messages WHERE content = $1', [content])).length > 0 })
    return r
  }
  const t = performance.now()
  await chatLine()
  const line = acked.chatLines.at(-1)?.content
  if (!line) throw new Error('the first chat line was not accepted')
  if (!(await waitUntil(() => streams.every((s) => s.seen.has(line)), 5000))) throw new Error(`the chat line did not reach both streams (${streams.map((s) => `${s.name}: ${s.seen.has(line)}`).join(', ')})`)
  say(`a chat line sent through the API side reached both consoles' live streams in ${Math.round(performance.now() - t)} ms`)

  // ---- Mixed load, with instances lost and restarted ----
  const withdrawalAmounts = new Set()
  let withdrawalSeq = 0
  const ops = [
    { weight: 5, run: () => send('GET share page (console)', `${cluster.webUrl}/share/${codes[Math.floor(Math.random() * codes.length)]}`) },
    { weight: 4, run: () => apiCall('GET share lookup (API)', shareApi.lookup, { query: { unicode: codes[Math.floor(Math.random() * codes.length)] } }) },
    { weight: 3, run: () => send('GET workplace (console, logged in)', `${cluster.webUrl}/dashboard/workplace`, { headers: { cookie: sellerCookie } }) },
    { weight: 3, run: () => apiCall('GET income summary (API, logged in)', incomeApi.summary, { token: sellerToken }) },
    { weight: 2, run: () => purchase(codes[Math.floor(Math.random() * codes.length)]) },
    {
      weight: 1,
      run: async () => {
        // Each amount once, so that a failed request can be looked up by it.
        const fen = 1000 + ++withdrawalSeq
        withdrawalAmounts.add(fen)
        const r = await apiCall('POST withdrawal', withdrawalsApi.create, { token: sellerToken, body: { amount: fen / 100 } })
        const w = dataOf(r)
        if (w) acked.withdrawals.push({ fen })
        else if (r.failed) failedWrites.push({ kind: 'withdrawal', check: async () => (await q('SELECT 1 FROM withdrawals WHERE amount_fen = $1', [fen])).length > 0 })
      },
    },
    { weight: 2, run: () => chatLine() },
  ]
  const totalWeight = ops.reduce((n, o) => n + o.weight, 0)
  const pick = () => {
    let r = Math.random() * totalWeight
    for (const o of ops) if ((r -= o.weight) < 0) return o
    return ops[0]
  }
  let loadOn = true
  const workers = Array.from({ length: WORKERS }, async () => {
    while (loadOn) {
      await pick().run()
      await sleep(30 + Math.random() * 40)
    }
  })

  const events = []
  const act = async (what, fn) => {
    const t0 = performance.now()
    const detail = await fn()
    const line = `${what} (${secs(performance.now() - t0)}${detail ? `, ${detail}` : ''})`
    events.push(line)
    say(line)
  }
  const loadStart = performance.now()
  say(`mixed load: ${WORKERS} workers for ${LOAD_SECONDS} s`)
  await sleep(5000)
  await act('kill -9 api1, started again', async () => {
    sigkills.push(performance.now())
    await cluster.kill('api1', 'SIGKILL')
    await sleep(2000)
    await cluster.start('api1')
  })
  await sleep(3000)
  await act('kill -9 web1, started again', async () => {
    sigkills.push(performance.now())
    await cluster.kill('web1', 'SIGKILL')
    await sleep(2000)
    await cluster.start('web1')
  })
  await sleep(3000)
  const stops = []
  for (const name of ['api1', 'api2', 'web1', 'web2']) {
    await act(`SIGTERM ${name}, started again (rolling restart)`, async () => {
      const t0 = performance.now()
      const exited = await cluster.kill(name, 'SIGTERM', 10_000)
      const stopMs = performance.now() - t0
      stops.push({ name, stopMs, killed: exited.killed })
      await cluster.start(name)
      return `stopped in ${secs(stopMs)}${exited.killed ? ' — NOT within 10 s: killed' : ''}`
    })
    await sleep(1500)
  }
  const left = LOAD_SECONDS * 1000 - (performance.now() - loadStart)
  if (left > 0) await sleep(left)
  loadOn = false
  await Promise.all(workers)
  const loadMs = performance.now() - loadStart
  // Live events still on their way (a stream reconnecting after the last restart).
  await waitUntil(() => acked.chatLines.every((l) => streams.every((s) => s.seen.has(l.content))), 8000)
  for (const s of streams) s.close()

  // ---- What the database says ----
  const lost = []
  for (const orderNo of acked.orders) if (!(await q('SELECT 1 FROM orders WHERE order_no = $1', [orderNo])).length) lost.push(`order ${orderNo}`)
  for (const orderNo of acked.paid) {
    const [row] = await q(`SELECT o.payment_status, (SELECT count(*)::int FROM ledger_entries l WHERE l.order_id = o.id AND l.kind = 'sale') AS sales FROM orders o WHERE o.order_no = $1`, [orderNo])
    if (row?.payment_status !== 'Completed' || row.sales !== 1) lost.push(`payment of ${orderNo} (${row?.payment_status}, ${row?.sales} sale rows)`)
  }
  for (const l of acked.chatLines) if (!(await q('SELECT 1 FROM chat_messages WHERE content = $1', [l.content])).length) lost.push(`chat line "${l.content}"`)
  for (const w of acked.withdrawals) if (!(await q('SELECT 1 FROM withdrawals WHERE amount_fen = $1', [w.fen])).length) lost.push(`withdrawal of ${w.fen} fen`)
  const failedChecked = []
  for (const f of failedWrites) failedChecked.push({ kind: f.kind, applied: await f.check() })

  const missed = streams.map((s) => ({ name: s.name, connects: s.connects, ids: s.ids, missed: acked.chatLines.filter((l) => !s.seen.has(l.content)).length }))
  const replay = streams.some((s) => s.ids)

  const [balances] = await q(`
    SELECT count(*)::int AS sellers,
           count(*) FILTER (WHERE b.balance_fen <> coalesce(l.total, 0) OR b.income_fen <> coalesce(l.income, 0))::int AS wrong
    FROM seller_balances b
    LEFT JOIN (SELECT seller_id, sum(amount_fen) AS total, sum(amount_fen) FILTER (WHERE kind IN ('sale', 'refund')) AS income FROM ledger_entries GROUP BY seller_id) l ON l.seller_id = b.seller_id`)
  const [orphans] = await q(`SELECT count(*)::int AS n FROM (SELECT seller_id FROM ledger_entries EXCEPT SELECT seller_id FROM seller_balances) x`)
  // A paid share order is a sale (channels and packages are the platform's income, free unlocks none).
  const paidSale = `o.product_type = 'share' AND o.payment_status IN ('Completed', 'Refund') AND o.provider <> 'subscription' AND o.amount_fen > 0`
  const [sales] = await q(`
    SELECT count(*) FILTER (WHERE ${paidSale})::int AS paid,
           count(*) FILTER (WHERE ${paidSale} AND s.n <> 1)::int AS paid_without_one_sale,
           count(*) FILTER (WHERE o.payment_status NOT IN ('Completed', 'Refund') AND s.n > 0)::int AS unpaid_with_sale
    FROM orders o LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM ledger_entries l WHERE l.order_id = o.id AND l.kind = 'sale') s ON true`)
  const [overdrawn] = await q(`SELECT count(*)::int AS n FROM seller_balances WHERE balance_fen < 0`)

  // ---- Report ----
  const rows = requests.rows()
  const sum = (f) => rows.filter(f).reduce((n, r) => n + r.sent, 0)
  const failedSum = (f) => rows.filter(f).reduce((n, r) => n + r.failed, 0)
  console.log(`\n  Requests through nginx (${secs(loadMs)} of load, ${WORKERS} workers, plus the set-up):`)
  console.log(`  ${'request'.padEnd(38)} ${'sent'.padStart(6)} ${'refused'.padStart(8)} ${'failed'.padStart(7)}`)
  for (const r of rows) {
    const why = [...Object.entries(r.statuses).map(([st, n]) => `${st}: ${n}`), ...(r.cut ? [`cut by kill -9: ${r.cut}`] : [])].join(', ')
    console.log(`  ${`${r.kind}${r.idempotent ? '' : ' *'}`.padEnd(38)} ${String(r.sent).padStart(6)} ${String(r.refused).padStart(8)} ${String(r.failed).padStart(7)}${why ? `  (${why})` : ''}`)
  }
  console.log(`  (refused: a 4xx answer, the product's own — a rate limit, a balance too low; failed: a 5xx or no answer.`)
  console.log(`   * not idempotent: nginx does not send it to a second instance once the first may have run it)`)
  const idemFailed = failedSum((r) => r.idempotent)
  console.log(`\n  requests sent:                    ${sum(() => true)} (idempotent ${sum((r) => r.idempotent)}, writes ${sum((r) => !r.idempotent)})`)
  console.log(`  failed idempotent requests:       ${idemFailed}   (goal 0)`)
  const cutSum = rows.reduce((n, r) => n + r.cut, 0)
  console.log(`  answers cut by kill -9:           ${cutSum}   (an answer on its way when its instance was SIGKILLed: no balancer can finish it)`)
  console.log(`  failed writes:                    ${failedChecked.length}${failedChecked.length ? ` — ${failedChecked.map((f) => `${f.kind}: ${f.applied ? 'applied' : 'not applied'}`).join('; ')}` : ''}`)
  console.log(`  acknowledged writes:              ${acked.orders.length} orders, ${acked.paid.length} payments, ${acked.chatLines.length} chat lines, ${acked.withdrawals.length} withdrawals`)
  console.log(`  acknowledged writes lost:         ${lost.length}   (goal 0)${lost.length ? ` — ${lost.slice(0, 5).join('; ')}` : ''}`)
  console.log(`  SSE events missed:                ${missed.reduce((n, m) => n + m.missed, 0)} of ${acked.chatLines.length * streams.length}   (goal 0; ${missed.map((m) => `${m.name}: ${m.missed} missed, ${m.connects} connections`).join(', ')})`)
  if (!replay) console.log(`                                    the streams carry no event ids: no Last-Event-ID replay in this build, so lines sent while a stream reconnects are missed`)
  console.log(`  ledger = balances:                ${balances.wrong === 0 && orphans.n === 0 ? 'yes' : 'NO'} (${balances.sellers} sellers, ${balances.wrong} wrong, ${orphans.n} without a balance row; ${overdrawn.n} overdrawn)`)
  console.log(`  one sale row per paid order:      ${sales.paid_without_one_sale === 0 && sales.unpaid_with_sale === 0 ? 'yes' : 'NO'} (${sales.paid} paid orders, ${sales.paid_without_one_sale} without exactly one sale, ${sales.unpaid_with_sale} unpaid with one)`)
  console.log(`  graceful stops (SIGTERM):         ${stops.map((s) => `${s.name} ${secs(s.stopMs)}${s.killed ? ' (killed)' : ''}`).join(', ')}   (goal ≤ 10 s each)`)
  console.log(`  start to ready URL:               ${secs(cluster.readyMs)}`)

  const problems = []
  if (idemFailed) problems.push(`${idemFailed} idempotent requests failed`)
  if (lost.length) problems.push(`${lost.length} acknowledged writes lost`)
  if (balances.wrong || orphans.n || overdrawn.n) problems.push('ledger and balances disagree')
  if (sales.paid_without_one_sale || sales.unpaid_with_sale) problems.push('sale rows and paid orders disagree')
  // Missed live events are a failure once the streams can be replayed (event ids, Last-Event-ID).
  if (replay && missed.some((m) => m.missed)) problems.push('live events missed despite Last-Event-ID')
  if (stops.some((s) => s.killed)) problems.push('an instance did not stop within 10 s of SIGTERM')
  if (problems.length) console.log(`\n  NOT MET: ${problems.join('; ')}`)
  if (failures.length) {
    // What failed and when (the events above carry the same clock), and what nginx logged of its 5xx
    // answers: the instances it tried and what each answered.
    console.log(`\n  Failed requests (time since the start, what, the answer):\n${failures.map((f) => `    ${f}`).join('\n')}`)
    const nginxLog = path.join(cluster.dir, 'logs', 'nginx-5xx.log')
    const logged = fs.existsSync(nginxLog) ? fs.readFileSync(nginxLog, 'utf8').trim() : ''
    if (logged) console.log(`\n  nginx's 5xx answers (${path.relative(process.cwd(), nginxLog)}):\n${logged.split('\n').map((l) => `    ${l}`).join('\n')}`)
  }
  return problems.length ? 1 : 0
}

// ---------------------------------------------------------------------------------------------------

console.log('Cluster test: two APIs, two consoles, nginx; everything below goes through nginx.')
// nginx appends to its log: this run's answers only.
fs.rmSync(path.join(settingsEnv.CLUSTER_DIR, 'logs', 'nginx-5xx.log'), { force: true })
const cluster = await startCluster({
  settingsEnv,
  log: say,
  // Sales settle at once, so that withdrawals have income to draw on.
  env: { SETTLEMENT_DELAY_HOURS: '0', SEED_DEMO: 'true' },
  onExit: (i, code, signal) => say(`!! ${i.name} exited by itself (${signal ?? code}); see ${i.logFile}`),
})
say(`cluster ready: ${cluster.url} in ${secs(cluster.readyMs)}`)
stopOnSignals(async () => {
  console.error('\nCluster test interrupted: stopping the cluster')
  await cluster.stop()
  process.exit(1)
})
const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 })
let exitCode = 0
try {
  exitCode = await run()
} catch (e) {
  console.error(`\nCluster test failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`)
  exitCode = 1
} finally {
  await db.end().catch(() => {})
  await cluster.stop()
}
console.log(`\nCluster test ${exitCode === 0 ? 'PASSED' : 'FAILED'} in ${secs(performance.now() - started)}`)
process.exit(exitCode)
