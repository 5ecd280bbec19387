import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { updatePasswordFormSchema } from '#contract/auth.ts'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { commitToken, requireUser } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'
import { invalid, refused, saved } from '../_app.user.setting/settings.server.ts'
import { PasswordForm } from './password-form.tsx'

/** POST /user/setting/password: every old token is revoked; this session goes on with the fresh one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const submission = parseWithZod(await readForm(request), { schema: updatePasswordFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  const { oldPassword, newPassword } = submission.value
  let fresh: string
  try {
    fresh = (await api(request, usersApi.updatePassword, { token, body: { oldPassword, newPassword } })).token
  } catch (e) {
    return refused(request, submission, e)
  }
  return saved(request, 'password', 'settings.passwordChanged', { 'set-cookie': await commitToken(request, fresh) })
}

/** Shown by the settings page in its password section, with this action's answer. */
export default function PasswordRoute() {
  return <PasswordForm last={useActionData<typeof action>()} />
}
