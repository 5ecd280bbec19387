import { z } from 'zod'
import { idSchema } from './users.ts'

/**
 * Batch actions of the admin queues (decision 125): one action applied to the rows an admin selected,
 * each item in its own transaction with its own rules and audit row, as one call of the single-item
 * endpoint would; one item's refusal does not undo or stop the others.
 */
export const BATCH_MAX = 100

/** The selected ids (a repeated id counts once). */
export const batchIdsSchema = z
  .array(idSchema, { error: 'validation.batchIds' })
  .min(1, 'validation.batchIds')
  .max(BATCH_MAX, 'validation.batchTooMany')
  .transform((ids) => [...new Set(ids)])

/**
 * One item's outcome: `ok` false with the msg key of its refusal (`…NotFound`, a 409's key) — what the
 * single-item endpoint would have answered; `changed` false for a repeat (already in that state).
 */
export const batchItemSchema = z.object({ id: z.number().int(), ok: z.boolean(), changed: z.boolean(), msg: z.string() })
export type BatchItem = z.infer<typeof batchItemSchema>

export const batchResultSchema = z.object({
  results: z.array(batchItemSchema),
  /** Items now in the asked state (changed or already so). */
  done: z.number().int(),
  failed: z.number().int(),
})
export type BatchResult = z.infer<typeof batchResultSchema>

/** The ids of the rows a queue page shows, as a query (`ids=3,5,8`): what the page needs to decide them in place. */
export const idListQuerySchema = z.object({
  ids: z
    .string({ error: 'validation.batchIds' })
    .transform((v): (string | number)[] => v.split(',').filter(Boolean))
    .pipe(batchIdsSchema),
})
