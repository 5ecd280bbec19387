import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { seed } from './db/seed.ts'
import { paymentsStartupReport } from './modules/payments/index.ts'
import { codeDeliveryWarning } from './plugins/app/services.ts'
import { oauthStartupReport } from './providers/oauth/index.ts'

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
  const codes = codeDeliveryWarning(config)
  if (codes) app.log[codes.level](codes.message)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(() => process.exit(0), () => process.exit(1))
    })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
