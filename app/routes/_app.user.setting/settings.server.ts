import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { emailCodeSchema, phoneCodeSchema, type updateAlipaySchema, updateEmailSchema, updatePhoneSchema, type updateProfileSchema } from '#contract/auth.ts'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { requireUser, type RequestArgs } from '#app/.server/auth.ts'
import { sendCode } from '#app/.server/codes.ts'
import { fieldError } from '#app/.server/failures.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast, type Toast } from '#app/.server/toast.ts'
import type { SectionResult } from './section-form.ts'

const PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'confirmPassword']

/** A submission the schema refused: back to its form, passwords left out. */
export const invalid = (submission: Submission<unknown>) => data<SectionResult>({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 })

/** An API refusal of a settings form, at its fields. */
export async function refused(request: Request, submission: Submission<unknown>, e: unknown) {
  const res = await fieldError(request, submission, e)
  return data<SectionResult>({ result: res.data }, res.init ?? undefined)
}

/** Back to the settings page at the saved section, with SPEC §8 'Save Success' (or the given toast key). */
export function saved(request: Request, anchor: string, key: Toast['key'] = 'settings.saveSuccess', headers?: HeadersInit) {
  return redirectWithToast(request, `/user/setting#${anchor}`, { type: 'success', key }, { headers })
}

/**
 * A settings form that saves one thing with one call (profile, Alipay account): parse with the form's
 * schema, send it as the endpoint's body, and come back to its section.
 */
export async function saveSection(args: RequestArgs, schema: typeof updateProfileSchema | typeof updateAlipaySchema, anchor: 'profile' | 'alipay') {
  const { request } = args
  const { token } = await requireUser(args)
  const submission = parseWithZod(await readForm(request), { schema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    if ('alipayAccount' in submission.value) await api(request, usersApi.updateAlipayInfo, { token, body: submission.value })
    else await api(request, usersApi.update, { token, body: submission.value })
  } catch (e) {
    return refused(request, submission, e)
  }
  return saved(request, anchor)
}

const BIND = {
  email: { schema: updateEmailSchema, codeSchema: emailCodeSchema, anchor: 'email' },
  phone: { schema: updatePhoneSchema, codeSchema: phoneCodeSchema, anchor: 'security-phone' },
} as const

/**
 * The email and phone forms: "Send code" (intent `<kind>Code`) sends a code to the typed address and
 * comes back to the form with where it went; the other button binds the address with that code.
 */
export async function bindAction(args: RequestArgs, kind: keyof typeof BIND) {
  const { request } = args
  const { token } = await requireUser(args)
  const formData = await readForm(request, [kind, `${kind}Code`])
  const bind = BIND[kind]
  if (formData.get('intent') === `${kind}Code`) {
    const submission = parseWithZod(formData, { schema: bind.codeSchema })
    if (submission.status !== 'success') return invalid(submission)
    const to = 'email' in submission.value ? submission.value.email : submission.value.phone
    try {
      const sent = await sendCode(request, 'bind', to, token)
      return data<SectionResult>({ result: submission.reply(), codeSent: { ...sent, at: Date.now() } })
    } catch (e) {
      return refused(request, submission, e)
    }
  }
  const submission = parseWithZod(formData, { schema: bind.schema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    if ('email' in submission.value) await api(request, usersApi.updateEmail, { token, body: submission.value })
    else await api(request, usersApi.updatePhone, { token, body: submission.value })
  } catch (e) {
    return refused(request, submission, e)
  }
  return saved(request, bind.anchor)
}
