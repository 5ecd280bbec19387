import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { updateProfileSchema } from '#contract/auth.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { saveSection } from '../_app.user.setting/settings.server.ts'
import { ProfileForm } from './profile-form.tsx'

/** POST /user/setting/profile: user name and profile (SPEC §7 /api/users/update). */
export const action = (args: ActionFunctionArgs) => saveSection(args, updateProfileSchema, 'profile')

/** Shown by the settings page in its profile section, with this action's answer. */
export default function ProfileRoute() {
  return <ProfileForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
