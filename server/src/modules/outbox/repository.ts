import { desc } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { outboxMessages } from '../../db/schema.ts'

export async function listOutbox(db: Database, page: { pageNum: number; pageSize: number }) {
  return db
    .select()
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.id))
    .limit(page.pageSize)
    .offset((page.pageNum - 1) * page.pageSize)
}
