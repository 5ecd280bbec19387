import type { BatchItem, BatchResult } from '#contract/batch.ts'
import { AppError } from '../errors.ts'

/**
 * Runs a queue's batch action one item after the other (decision 125): `act` is what the single-item
 * endpoint does — its own transaction, rules and audit row. A refusal of one item (an unknown id, a
 * state that does not allow the move: the AppError the single endpoint would answer) is that item's
 * result and the next item runs; anything else is a fault and stops the batch (its earlier items stay done).
 */
export async function eachItem(ids: readonly number[], act: (id: number) => Promise<{ changed: boolean; msg: string }>): Promise<BatchResult> {
  const results: BatchItem[] = []
  for (const id of ids) {
    try {
      results.push({ id, ok: true, ...(await act(id)) })
    } catch (e) {
      if (!(e instanceof AppError)) throw e
      results.push({ id, ok: false, changed: false, msg: e.msg })
    }
  }
  const done = results.filter((r) => r.ok).length
  return { results, done, failed: results.length - done }
}
