// First: V8's flags must be set before the rest of the API is loaded (decision 162).
import './v8-flags.ts'
import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { seed } from './db/seed.ts'
import { paymentsStartupReport } from './modules/payments/index.ts'
import { codeDeliveryWarning } from './plugins/app/services.ts'
import { oauthStartupReport } from './providers/oauth/index.ts'

/** How long a graceful stop may take before the process exits anyway (under the 10 s of a typical orchestrator). */
const STOP_DEADLINE_MS = 8_000

/** Starts the API: config, database, migrations, first-start seed, listen. */
async function main() {
  let config
  try {
    config = loadConfig()
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  // One instance at a time (a database lock): several starting at once on an empty database migrate
  // and seed exactly once; the others find it done (decision 133).
  const seeded = await handle.exclusive(async () => {
    await handle.migrate()
    return seed(handle.db, { adminPassword: config.adminPassword, demo: config.seedDemo, contentKey: config.secrets.contentKey, feeBasisPoints: config.defaultFeeBp, withdrawal: config.withdrawal })
  })
  const app = await buildApp({ config, db: handle.db, sweepOrders: true })
  app.addHook('onClose', () => handle.close())
  await app.listen({ port: config.port, host: config.host })
  app.log.info(`API on ${handle.driver === 'pg' ? 'PostgreSQL' : `PGlite (${config.dataDir})`}`)
  if (seeded.adminCreated) {
    const pw = seeded.adminPassword ?? '(ADMIN_PASSWORD)'
    console.log(`\n  Seeded admin — user name: admin  password: ${pw}\n  (shown once; set ADMIN_PASSWORD to choose it)\n`)
  }
  if (seeded.demo) console.log('  Demo users: demo_seller / demo_buyer, password Demo@2026\n')
  for (const line of paymentsStartupReport(app.payments, config)) app.log[line.level](line.msg)
  for (const line of oauthStartupReport(app.oauth, config)) app.log[line.level](line.msg)
  if (config.linkCheck?.allowPrivate) app.log.warn('LINKS: LINK_CHECK_ALLOW_PRIVATE is on — the link checker may reach loopback and private addresses (tests and local try-outs only, never in production).')
  const codes = codeDeliveryWarning(config)
  if (codes) app.log[codes.level](codes.message)
  // A graceful stop (SIGTERM from a process manager or a rolling restart, or Ctrl-C): stop accepting,
  // let the requests in flight finish, end the live streams with a reconnect hint, close the database,
  // and exit; past the deadline, exit anyway (decision 137).
  let stopping: string | null = null
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      // The same signal again (Ctrl-C twice): stop now. Another one (npm start passes SIGTERM on after the
      // terminal's SIGINT): already stopping.
      if (stopping === signal) process.exit(1)
      if (stopping) return
      stopping = signal
      app.log.info(`${signal}: stopping (requests in flight finish, live streams are told to reconnect)`)
      setTimeout(() => {
        app.log.error(`still stopping after ${STOP_DEADLINE_MS} ms: exiting with requests open`)
        process.exit(1)
      }, STOP_DEADLINE_MS).unref()
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'stopping failed')
          process.exit(1)
        },
      )
    })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
