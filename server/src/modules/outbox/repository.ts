import { desc } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { outboxMessages } from '../../db/schema/index.ts'
import { type PageQuery, pageWindow } from '../../db/paging.ts'

export async function listOutbox(db: Database, page: PageQuery) {
  const { limit, offset } = pageWindow(page)
  return db.select().from(outboxMessages).orderBy(desc(outboxMessages.id)).limit(limit).offset(offset)
}
