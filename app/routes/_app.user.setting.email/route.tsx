import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { bindAction } from '../_app.user.setting/settings.server.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { EmailForm } from './email-form.tsx'

/** POST /user/setting/email: send a code to an email, or bind it with the code (SPEC §7 updateEmail). */
export const action = (args: ActionFunctionArgs) => bindAction(args, 'email')

/** Shown by the settings page in its email section, with this action's answer. */
export default function EmailRoute() {
  return <EmailForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
