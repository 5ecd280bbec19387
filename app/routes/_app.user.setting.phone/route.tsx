import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { bindAction } from '../_app.user.setting/settings.server.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { PhoneForm } from './phone-form.tsx'

/** POST /user/setting/phone: send a code to a phone, or bind it with the code (SPEC §7 updatePhone). */
export const action = (args: ActionFunctionArgs) => bindAction(args, 'phone')

/** Shown by the settings page in its phone section, with this action's answer. */
export default function PhoneRoute() {
  return <PhoneForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
