import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { updateAlipaySchema } from '#contract/auth.ts'
import { usersApi } from '#contract/users.ts'
import { api } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { readForm } from '#app/.server/request.ts'
import { useSettingsUser } from '../_app.user.setting/section-form.ts'
import { invalid, refused, saved } from '../_app.user.setting/settings.server.ts'
import { AlipayForm } from './alipay-form.tsx'

/** POST /user/setting/alipay: the payout account (SPEC §7 /api/users/updateAlipayInfo). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const submission = parseWithZod(await readForm(request), { schema: updateAlipaySchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await api(request, usersApi.updateAlipayInfo, { token, body: submission.value })
  } catch (e) {
    return refused(request, submission, e)
  }
  return saved(request, 'alipay')
}

/** Shown by the settings page in its Alipay section, with this action's answer. */
export default function AlipayRoute() {
  return <AlipayForm user={useSettingsUser()} last={useActionData<typeof action>()} />
}
