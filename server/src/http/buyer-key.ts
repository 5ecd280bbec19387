import type { FastifyRequest } from 'fastify'
import { BUYER_KEY_HEADER, buyerKeySchema } from '#contract/codes.ts'
import { invalid } from '../errors.ts'

/**
 * The buyer key a request carries (decision 102): only in the `x-buyer-key` header, never in a URL that
 * logs and proxies keep. Null without one; 422 for a malformed one (a well-formed key that is not the
 * order's is simply no proof).
 */
export function buyerKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[BUYER_KEY_HEADER]
  if (raw === undefined) return null
  const parsed = buyerKeySchema.safeParse(raw)
  if (!parsed.success) throw invalid({ [BUYER_KEY_HEADER]: ['validation.buyerKey'] })
  return parsed.data
}
