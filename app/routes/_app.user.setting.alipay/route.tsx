import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { updateAlipaySchema } from '#contract/auth.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { saveSection } from '../_app.user.setting/settings.server.ts'
import { AlipayForm } from './alipay-form.tsx'

/** POST /user/setting/alipay: the payout account (SPEC §7 /api/users/updateAlipayInfo). */
export const action = (args: ActionFunctionArgs) => saveSection(args, updateAlipaySchema, 'alipay')

/** Shown by the settings page in its Alipay section, with this action's answer. */
export default function AlipayRoute() {
  return <AlipayForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
