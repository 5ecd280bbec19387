import { type ActionFunctionArgs, data } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { rowError } from '#app/.server/failures.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { TermsForm } from './terms-form.tsx'

/** POST /user/setting/terms: agree to the sharing disclaimer (a form without fields). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  await readForm(request)
  try {
    await api(request, usersApi.agreeToTerms, { token })
  } catch (e) {
    return data({ error: await rowError(request, e) }, { status: 400 })
  }
  return redirectWithToast(request, '/user/setting', { type: 'success', key: 'settings.termsAgreed' })
}

/** Shown by the settings page in its terms section, with this action's answer. */
export default function TermsRoute() {
  return <TermsForm user={useSettingsUser()} error={useActionData<typeof action>()?.error} />
}
