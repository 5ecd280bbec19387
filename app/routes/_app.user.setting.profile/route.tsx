import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { updateProfileSchema } from '#contract/auth.ts'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { invalid, refused, saved } from '../_app.user.setting/settings.server.ts'
import { ProfileForm } from './profile-form.tsx'

/** POST /user/setting/profile: user name and profile (SPEC §7 /api/users/update). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const submission = parseWithZod(await readForm(request), { schema: updateProfileSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await api(request, usersApi.update, { token, body: submission.value })
  } catch (e) {
    return refused(request, submission, e)
  }
  return saved(request, 'profile')
}

/** Shown by the settings page in its profile section, with this action's answer. */
export default function ProfileRoute() {
  return <ProfileForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
