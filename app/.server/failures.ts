import type { Submission } from '@conform-to/react'
import { data, redirect } from '@remix-run/node'
import { authApi } from '#contract/auth.ts'
import { ApiError } from './api.ts'
import { destroySession, loginRedirect } from './auth.ts'
import { serviceUnavailable } from './request.ts'
import { CONFIRM_LOGOUT_IN_FORM } from '#app/components/feedback/flash.tsx'
import { setFlash } from './toast.ts'

/**
 * How an API failure reaches the user (SPEC §8), in one place for the three kinds of places it happens:
 * a form (`fieldError`: messages at the fields and above the form), a page load (`pageError`: the
 * error page) and a row action of a list (`rowError`: a message above the list). Common to all: a dead
 * token logs out and goes to login; 500–504 open the "Confirm logout" dialog; an API that did not answer
 * never does either (the session is fine).
 */
async function settle(request: Request, e: unknown, { dialog = true }: { dialog?: boolean } = {}): Promise<ApiError> {
  if (!(e instanceof ApiError)) throw e
  // The login call's 401 is a wrong password, not a dead session.
  if (e.status === 401 && e.path !== authApi.login.path) throw loginRedirect(request, { 'set-cookie': await destroySession(request) }, e)
  if (dialog && e.confirmsLogout) {
    const url = new URL(request.url)
    throw redirect(url.pathname + url.search, { headers: { 'set-cookie': await setFlash(request, { confirmLogout: true }) } })
  }
  return e
}

const PASSWORD_FIELDS = ['password', 'confirmPassword', 'oldPassword', 'newPassword']

/**
 * SPEC §8's dialog after a form's 500–504 offers to stay on the page: so the form comes back with what
 * was typed and the msg above it — no redirect, which would render it afresh (decision 128). A fetch
 * (JavaScript) leaves the flash cookie for the root's revalidation after it; a page post (no JavaScript)
 * cannot reach the root loader of its own page, so the form's messages carry the dialog instead.
 */
async function confirmLogoutReply<T>(request: Request, submission: Submission<T>, msg: string, status: number) {
  const page = request.headers.get('accept')?.includes('text/html') ?? false
  const reply = submission.reply({ formErrors: page ? [msg, CONFIRM_LOGOUT_IN_FORM] : [msg], hideFields: PASSWORD_FIELDS })
  if (page) return data(reply, { status })
  return data(reply, { status, headers: { 'set-cookie': await setFlash(request, { confirmLogout: true }) } })
}

/** A form's API failure: field messages next to the fields (`fieldMap` renames API fields), else the msg above the form. */
export async function fieldError(request: Request, submission: Submission<unknown>, e: unknown, fieldMap: Record<string, string> = {}) {
  const error = await settle(request, e, { dialog: false })
  if (error.confirmsLogout) return confirmLogoutReply(request, submission, error.msg, error.status)
  const fieldErrors: Record<string, string[]> = {}
  for (const [k, v] of Object.entries(error.fieldErrors ?? {})) fieldErrors[fieldMap[k] ?? k] = v
  const hasFields = Object.keys(fieldErrors).length > 0
  // Passwords are never sent back into the page (without JS they would be rendered as input values).
  const reply = submission.reply({ formErrors: hasFields ? [] : [error.msg], fieldErrors, hideFields: PASSWORD_FIELDS })
  return data(reply, { status: error.unreachable ? 503 : 400 })
}

/** A page load's API failure, thrown: the error boundary shows it (with the dialog for 500–504). */
export async function pageError(request: Request, e: unknown): Promise<never> {
  const error = await settle(request, e, { dialog: false })
  if (error.unreachable) throw serviceUnavailable()
  throw data({ msg: error.msg, confirmLogout: error.confirmsLogout }, { status: error.status })
}

/**
 * An action's API failure that goes on with a redirect anyway (a toast on the next page): the msg key.
 * 500–504 redirect back to this page with the dialog, except the msgs in `shown`, which the page states
 * itself (a payment gateway's refusal, say). A row of a list answers with `rowRefusal` instead.
 */
export async function rowError(request: Request, e: unknown, shown: string[] = []): Promise<string> {
  const error = await settle(request, e, { dialog: !(e instanceof ApiError && shown.includes(e.msg)) })
  return error.msg
}

/** What a list page's action answers after a row action failed: the msg above the list, and whether the page opens the dialog. */
type RowRefusal = { error: string; confirmLogout: boolean }

/**
 * A row action's API failure (a list row's button, a queue's batch, a confirm step): the answer for the
 * page to state above the list (`error`, with the caller's `extra` fields). 500–504 open SPEC §8's
 * "Confirm logout" dialog on this page, which offers to stay: no redirect (the walk of issue 23 found
 * the page re-rendered afresh, the ticks and a typed reason gone), but the page's own answer, as a
 * form's (decision 128) — with JavaScript the flash cookie the root's revalidation reads, without it
 * `confirmLogout` for the page's `FormErrors` (`rowErrors`). The msgs in `shown` are stated by the page
 * itself, without the dialog (a payment gateway's refusal, say). Decision 156.
 */
export async function rowRefusal<T extends object = object>(request: Request, e: unknown, extra?: T, shown: string[] = []) {
  const error = await settle(request, e, { dialog: false })
  const body: T & RowRefusal = { ...(extra as T), error: error.msg, confirmLogout: false }
  if (!error.confirmsLogout || shown.includes(error.msg)) return data(body, { status: 400 })
  if (request.headers.get('accept')?.includes('text/html')) return data({ ...body, confirmLogout: true }, { status: error.status })
  return data(body, { status: error.status, headers: { 'set-cookie': await setFlash(request, { confirmLogout: true }) } })
}
