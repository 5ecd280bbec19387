import { data } from '@remix-run/node'
import type { z } from 'zod'
import type { BatchResult } from '#contract/batch.ts'
import { oversightApi, type SellerHistory } from '#contract/oversight.ts'
import { type ShareContent, sharesApi } from '#contract/shares.ts'
import { apiMessage } from '#app/utils/api-message.ts'
import { api } from './api.ts'
import type { QueueSent } from '#app/components/lists/queue.tsx'
import { rowRefusal } from './failures.ts'
import { getT } from './i18n.ts'
import { listUrl } from './lists.ts'
import { redirectWithToast } from './toast.ts'

/**
 * The admin queues (decision 125): what a page needs to decide its rows in place, the rows an admin
 * selected, and where the queue continues after an action.
 */

/** The shares' contents and their sellers' records, by share id and user name; empty when the page has none. */
export async function queueContext(request: Request, token: string, { shareIds = [], names = [] }: { shareIds?: number[]; names?: string[] }) {
  const ids = [...new Set(shareIds)]
  const contents: Record<number, ShareContent> = {}
  if (ids.length) for (const c of (await api(request, sharesApi.adminContents, { token, query: { ids: ids.join(',') } })).list) contents[c.id] = c
  const sellers: Record<string, SellerHistory> = {}
  const all = [...new Set([...names, ...Object.values(contents).map((c) => c.user_name)])]
  if (all.length) for (const s of (await api(request, oversightApi.sellerHistory, { token, query: { names: all.join(',') } })).list) sellers[s.user_name] = s
  return { contents, sellers }
}

/** The ids ticked in a queue form (`ids`), as numbers; junk is dropped (the API refuses an empty batch by name). */
export function selectedIds(form: FormData): number[] {
  return form
    .getAll('ids')
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0)
}

/**
 * The list URL anchored at the next row to decide: the first row after the acted ones that was not
 * acted on (or the first before them), from the order the page showed (`rows`). With JavaScript the
 * page scrolls there too; without it the browser jumps to the anchor, so the queue goes on in place.
 */
export function nextItemUrl(request: Request, form: FormData, acted: readonly number[], dialogKeys: readonly string[] = []) {
  const url = listUrl(request, dialogKeys)
  const rows = String(form.get('rows') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
  const done = new Set(acted)
  const last = Math.max(-1, ...rows.map((id, i) => (done.has(id) ? i : -1)))
  const next = rows.slice(last + 1).find((id) => !done.has(id)) ?? rows.find((id) => !done.has(id))
  return next ? `${url}#item-${next}` : url
}

/** What the queue form sent, for the page to show again after a refusal: the ticks and the typed fields. */
export function queueSent(form: FormData): QueueSent {
  const values: Record<string, string> = {}
  for (const [k, v] of form) if (typeof v === 'string' && !['ids', 'rows', 'intent'].includes(k)) values[k] = v
  return { ids: selectedIds(form), values }
}

/** How many reasons a toast names (the flash rides a cookie). */
const REASONS_SHOWN = 5

/** After a batch: back to the queue at its next row, saying how many were done and why any were not. */
export async function batchDone(request: Request, form: FormData, result: BatchResult, dialogKeys: readonly string[] = []) {
  const to = nextItemUrl(
    request,
    form,
    result.results.filter((r) => r.ok).map((r) => r.id),
    dialogKeys,
  )
  if (!result.failed) return redirectWithToast(request, to, { type: 'success', key: 'common.queue.done', values: { done: String(result.done) } })
  const t = await getT(request)
  const failed = result.results.filter((r) => !r.ok)
  const reasons = failed
    .slice(0, REASONS_SHOWN)
    .map((r) => `#${r.id} ${apiMessage(t, r.msg)}`)
    .join(t('common.queue.separator'))
  return redirectWithToast(request, to, {
    type: 'error',
    key: 'common.queue.partly',
    values: { done: String(result.done), failed: String(result.failed), reasons: failed.length > REASONS_SHOWN ? `${reasons}${t('common.queue.separator')}…` : reasons },
  })
}

/**
 * A queue page's batch action: the form checked against the batch endpoint's schema (nothing ticked,
 * no reason: refused by name without asking the API), then the API called and the queue continued
 * (`batchDone`); a refusal of the whole call is stated above the list, the ticks and typed fields kept.
 */
export async function runBatch<B>(request: Request, form: FormData, parsed: z.ZodSafeParseResult<B>, call: (body: B) => Promise<BatchResult>, dialogKeys: readonly string[]) {
  const sent = queueSent(form)
  if (!parsed.success) return data({ intent: 'batch' as const, error: parsed.error.issues[0]?.message ?? 'errors.badRequest', confirmLogout: false, sent }, { status: 400 })
  try {
    return await batchDone(request, form, await call(parsed.data), dialogKeys)
  } catch (e) {
    return rowRefusal(request, e, { intent: 'batch' as const, sent })
  }
}
