import { authApi } from '#contract/auth.ts'
import { identifyEmailOrPhone } from '#contract/rules.ts'
import { api } from './api.ts'

export type CodeSent = { to: string; delivery: 'outbox' | 'sent'; resendAfter: number }

/** SPEC §7 code GETs, by purpose and by where the code goes. */
const ENDPOINTS = {
  register: { email: authApi.registerCode, phone: authApi.phoneRegisterCode },
  forgot: { email: authApi.forgotPasswordCode, phone: authApi.forgotPasswordCode },
  bind: { email: authApi.emailCode, phone: authApi.phoneCode },
} as const

/** Asks the API to send a code to an email or phone. */
export async function sendCode(request: Request, purpose: keyof typeof ENDPOINTS, target: string, token?: string | null): Promise<CodeSent> {
  const id = identifyEmailOrPhone(target)
  if (id.kind === 'invalid') throw new Error('sendCode needs a valid email or phone')
  const query = id.kind === 'phone' ? { phone: id.phone } : { email: id.email }
  const r = await api(request, ENDPOINTS[purpose][id.kind], { query, token })
  return { to: target, delivery: r.delivery, resendAfter: r.resendAfter }
}
