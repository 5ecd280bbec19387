import { callApi } from './api.ts'
import { identifyEmailOrPhone } from '#contract/rules.ts'

export type CodeSent = { to: string; delivery: 'outbox' | 'sent'; resendAfter: number }

const PATHS = {
  register: { email: '/api/auth/getRegisterVerificationCode', phone: '/api/auth/getPhoneRegisterVerificationCode' },
  forgot: { email: '/api/auth/getForgotPasswordrVerificationCode', phone: '/api/auth/getForgotPasswordrVerificationCode' },
  bind: { email: '/api/auth/getEmailVerificationCode', phone: '/api/auth/getPhoneVerificationCode' },
} as const

/** Asks the API to send a code to an email or phone (SPEC §7 code GETs). */
export async function sendCode(request: Request, purpose: keyof typeof PATHS, target: string, token?: string | null): Promise<CodeSent> {
  const id = identifyEmailOrPhone(target)
  if (id.kind === 'invalid') throw new Error('sendCode needs a valid email or phone')
  const query = id.kind === 'phone' ? { phone: id.phone } : { email: id.email }
  const r = await callApi<{ resendAfter: number; delivery: 'outbox' | 'sent' }>(request, PATHS[purpose][id.kind], { query, token })
  return { to: target, delivery: r.delivery, resendAfter: r.resendAfter }
}
