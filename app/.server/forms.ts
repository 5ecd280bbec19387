import type { Submission } from '@conform-to/react'
import { data, redirect } from '@remix-run/node'
import { ApiError } from './api.ts'
import { redirectToLogin } from './auth.ts'
import { setFlash } from './toast.ts'

const PASSWORD_FIELDS = ['password', 'confirmPassword', 'oldPassword', 'newPassword']

/**
 * Turns an API failure inside an action into what the user sees (SPEC §8): field messages next to the
 * fields, the server msg above the form, the "Confirm logout" dialog for 500–504, login for a dead token.
 */
export async function replyWithApiError(
  request: Request,
  submission: Submission<unknown>,
  e: unknown,
  fieldMap: Record<string, string> = {},
) {
  if (!(e instanceof ApiError)) throw e
  const url = new URL(request.url)
  if (e.confirmsLogout) {
    throw redirect(url.pathname + url.search, { headers: { 'set-cookie': await setFlash(request, { confirmLogout: true }) } })
  }
  if (e.status === 401 && e.path !== '/api/auth/login') return redirectToLogin(request, e)
  const fieldErrors: Record<string, string[]> = {}
  for (const [k, v] of Object.entries(e.fieldErrors ?? {})) fieldErrors[fieldMap[k] ?? k] = v
  // One message, one place (issue 13): an answer about fields is shown at those fields only.
  const hasFields = Object.keys(fieldErrors).length > 0
  // Passwords are never sent back into the page (without JS they would be rendered as input values).
  return data(submission.reply({ formErrors: hasFields ? [] : [e.msg], fieldErrors, hideFields: PASSWORD_FIELDS }), { status: 400 })
}

/** A thrown Response for loaders: the error boundary shows it (and the dialog for 500–504). */
export async function loaderApiError(request: Request, e: unknown): Promise<never> {
  if (!(e instanceof ApiError)) throw e
  if (e.status === 401) return redirectToLogin(request, e)
  throw data({ msg: e.msg, confirmLogout: e.confirmsLogout }, { status: e.status })
}
