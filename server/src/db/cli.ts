// `npm run db:migrate` / `npm run db:seed` against DATABASE_URL or the embedded database.
import { loadConfig } from '../config.ts'
import { openDatabase } from './client.ts'
import { seed } from './seed.ts'

const command = process.argv[2]
const config = loadConfig()
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
try {
  // Under the start lock, like an API starting (decision 133): safe beside running or starting instances.
  await handle.exclusive(async () => {
    await handle.migrate()
    console.log('migrations applied')
    if (command === 'seed') {
      const r = await seed(handle.db, { adminPassword: config.adminPassword, demo: config.seedDemo, contentKey: config.secrets.contentKey, feeBasisPoints: config.defaultFeeBp, withdrawal: config.withdrawal })
      if (r.adminPassword) console.log(`admin password: ${r.adminPassword}`)
      console.log('seeded')
    }
  })
} finally {
  await handle.close()
}
