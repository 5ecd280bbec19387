import type { CodeSentAnswer } from '#contract/auth.ts'
import type { CodeSender } from '../../providers/codes.ts'

/** The answer to a code request: when to ask again, and whether it went out or waits in the dev outbox. */
export const presentCodeSent = (r: { resendAfter: number }, provider: Pick<CodeSender, 'kind'>): CodeSentAnswer => ({
  resendAfter: r.resendAfter,
  delivery: provider.kind === 'outbox' ? 'outbox' : 'sent',
})
