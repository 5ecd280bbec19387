import type { LoaderFunctionArgs } from '@remix-run/node'
import { type WithdrawalPreview, withdrawalAmountSchema, withdrawalsApi } from '#contract/withdrawals.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { rowError } from '#app/.server/failures.ts'

export type PreviewAnswer = { amount: string; preview: WithdrawalPreview | null; error: string | null }

/**
 * GET /dashboard/withdrawal/preview?amount= — the figures the withdrawal form shows while the seller
 * types (its debounced fetcher); without JavaScript the form's "Preview" button asks the page's action.
 */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<PreviewAnswer> {
  const { token } = await requireUser({ request, context })
  const amount = new URL(request.url).searchParams.get('amount') ?? ''
  const parsed = withdrawalAmountSchema.safeParse(amount)
  if (!parsed.success) return { amount, preview: null, error: parsed.error.issues[0]?.message ?? 'withdrawals.amountFormat' }
  try {
    return { amount, preview: await api(request, withdrawalsApi.preview, { token, query: { amount: parsed.data } }), error: null }
  } catch (e) {
    return { amount, preview: null, error: await rowError(request, e) }
  }
}
