import { z } from 'zod'
import { endpoint, pageOf, timestamp } from './http.ts'
import { pageQuerySchema } from './users.ts'

/** A verification code held back while no real mail or SMS provider is configured. */
export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.string(),
  to: z.string(),
  code: z.string(),
  purpose: z.string(),
  created_at: timestamp,
})
export type OutboxMessage = z.infer<typeof outboxMessageSchema>

export const outboxApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/dev/outbox',
    access: 'admin',
    tag: 'outbox',
    summary: 'Codes held back while no mail or SMS provider is configured, newest first',
    query: pageQuerySchema,
    response: pageOf(outboxMessageSchema).omit({ total: true }),
  }),
}
