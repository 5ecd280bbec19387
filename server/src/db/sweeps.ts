import { sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { appMeta } from './schema/index.ts'

/**
 * Claims the minute sweeps of `at`'s minute for this instance (decision 134): every API instance ticks
 * once a minute, and only the first tick of each minute, across all instances on the database, runs the
 * sweeps. One upsert on `app_meta` (`sweep.<name>` holds the last claimed minute since the epoch): the
 * row lock makes a second claim of the same minute wait for the first and then find nothing to update.
 */
export async function claimMinute(db: Database, name: string, at: Date): Promise<boolean> {
  const minute = String(Math.floor(at.getTime() / 60_000))
  const won = await db
    .insert(appMeta)
    .values({ key: `sweep.${name}`, value: minute })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: minute }, setWhere: sql`app_meta.value::bigint < ${minute}::bigint` })
    .returning({ key: appMeta.key })
  return won.length === 1
}
